import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isPrivateAddress } from "@hookflow/domain";

/** A target outbound deliveries may not reach; retrying it cannot help. */
export class RefusedTargetError extends Error {
  readonly code: string = "HOOKFLOW_REFUSED_TARGET";
}

/** A target resolved (or was written) to an address outbound deliveries may not reach. */
export class PrivateTargetError extends RefusedTargetError {
  override readonly code = "HOOKFLOW_PRIVATE_TARGET";
  constructor(host: string, address: string) {
    super(
      host === address
        ? `target refused: ${address} is a private, loopback or link-local address`
        : `target refused: ${host} resolves to ${address}, a private, loopback or link-local address`,
    );
  }
}

/**
 * `lookup` for the outbound socket: resolves every address of the host and refuses the connection
 * when any of them is private. Because the check runs inside the connect call on the very
 * addresses the socket will use, DNS rebinding between a check and the connect cannot slip past.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 4);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(new PrivateTargetError(hostname, refused.address), "", 4);
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
      return;
    }
    const first = addresses[0];
    if (!first) return callback(new Error(`no address for ${hostname}`), "", 4);
    callback(null, first.address, first.family);
  });
};
