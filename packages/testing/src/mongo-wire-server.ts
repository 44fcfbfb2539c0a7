import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { BSON, type Document } from "bson";

/** A command the server received, with its document sequences (`documents`, `updates`) folded in. */
export interface MongoCommand {
  name: string;
  db: string;
  body: Document;
}

export interface MongoWireServer {
  /** `mongodb://127.0.0.1:<port>/`: one standalone server, no authentication. */
  uri: string;
  commands: MongoCommand[];
  /** Commands other than the handshake, pings and session bookkeeping. */
  writes: () => MongoCommand[];
  /** Answers the next command of that name with this error instead. */
  failNext: (name: string, error: { code: number; errmsg: string }) => void;
  close: () => Promise<void>;
}

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const HANDSHAKE = new Set([
  "hello",
  "ismaster",
  "isMaster",
  "ping",
  "endSessions",
  "buildInfo",
  "buildinfo",
  "getParameter",
]);

/**
 * An in-process server speaking enough of MongoDB's wire protocol for the official driver to
 * write with it: OP_MSG (and the legacy OP_QUERY handshake), `hello`, `ping`, `insert`, `update`,
 * `endSessions`. It stores nothing; it records every command so tests check what the driver sent.
 */
export async function startMongoWireServer(): Promise<MongoWireServer> {
  const commands: MongoCommand[] = [];
  const failures = new Map<string, { code: number; errmsg: string }>();
  let connections = 0;
  const sockets = new Set<Socket>();

  const reply = (name: string, body: Document, connectionId: number): Document => {
    const failure = failures.get(name);
    if (failure) {
      failures.delete(name);
      return { ok: 0, ...failure };
    }
    switch (name) {
      case "hello":
      case "ismaster":
      case "isMaster":
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId,
          minWireVersion: 0,
          maxWireVersion: 21,
          readOnly: false,
          ok: 1,
        };
      case "ping":
      case "endSessions":
        return { ok: 1 };
      case "buildInfo":
      case "buildinfo":
        return { version: "7.0.0", versionArray: [7, 0, 0, 0], ok: 1 };
      case "insert":
        return { n: Array.isArray(body.documents) ? body.documents.length : 0, ok: 1 };
      case "update": {
        const updates = Array.isArray(body.updates) ? body.updates : [];
        return { n: updates.length, nModified: updates.length, ok: 1 };
      }
      default:
        return {
          ok: 0,
          errmsg: `no such command: '${name}'`,
          code: 59,
          codeName: "CommandNotFound",
        };
    }
  };

  const frame = (opCode: number, responseTo: number, payload: Buffer): Buffer => {
    const header = Buffer.alloc(16);
    header.writeInt32LE(16 + payload.length, 0);
    header.writeInt32LE(Math.floor(Math.random() * 2 ** 31), 4);
    header.writeInt32LE(responseTo, 8);
    header.writeInt32LE(opCode, 12);
    return Buffer.concat([header, payload]);
  };

  /** An OP_MSG's body with its kind-1 sections folded in as arrays. */
  const parseMsg = (message: Buffer): Document => {
    const flags = message.readUInt32LE(16);
    const end = message.length - ((flags & 1) === 1 ? 4 : 0);
    let offset = 20;
    let body: Document = {};
    const sequences: Record<string, Document[]> = {};
    while (offset < end) {
      const kind = message[offset];
      offset += 1;
      const size = message.readInt32LE(offset);
      if (kind === 0) {
        body = BSON.deserialize(message.subarray(offset, offset + size));
        offset += size;
        continue;
      }
      const sectionEnd = offset + size;
      let cursor = offset + 4;
      const nameEnd = message.indexOf(0, cursor);
      const identifier = message.toString("utf8", cursor, nameEnd);
      cursor = nameEnd + 1;
      const docs: Document[] = [];
      while (cursor < sectionEnd) {
        const docSize = message.readInt32LE(cursor);
        docs.push(BSON.deserialize(message.subarray(cursor, cursor + docSize)));
        cursor += docSize;
      }
      sequences[identifier] = docs;
      offset = sectionEnd;
    }
    return { ...body, ...sequences };
  };

  const handle = (socket: Socket, message: Buffer, connectionId: number) => {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_MSG) {
      const body = parseMsg(message);
      const name = Object.keys(body)[0] ?? "";
      commands.push({ name, db: String(body.$db ?? ""), body });
      const answer = BSON.serialize(reply(name, body, connectionId));
      socket.write(
        frame(OP_MSG, requestId, Buffer.concat([Buffer.alloc(4), Buffer.from([0]), answer])),
      );
      return;
    }
    if (opCode === OP_QUERY) {
      // flags, fullCollectionName (cstring), numberToSkip, numberToReturn, query document.
      const nameEnd = message.indexOf(0, 20);
      const collection = message.toString("utf8", 20, nameEnd);
      const queryStart = nameEnd + 1 + 8;
      const size = message.readInt32LE(queryStart);
      const body = BSON.deserialize(message.subarray(queryStart, queryStart + size));
      const name = Object.keys(body)[0] ?? "";
      commands.push({ name, db: collection.split(".")[0] ?? "", body });
      const doc = BSON.serialize(reply(name, body, connectionId));
      const head = Buffer.alloc(20);
      head.writeInt32LE(0, 0); // responseFlags
      head.writeBigInt64LE(0n, 4); // cursorID
      head.writeInt32LE(0, 12); // startingFrom
      head.writeInt32LE(1, 16); // numberReturned
      socket.write(frame(OP_REPLY, requestId, Buffer.concat([head, doc])));
      return;
    }
    socket.destroy();
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    connections += 1;
    const connectionId = connections;
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readInt32LE(0);
        if (length < 16 || length > 48_000_000) {
          socket.destroy();
          return;
        }
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        handle(socket, message, connectionId);
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    commands,
    writes: () => commands.filter((command) => !HANDSHAKE.has(command.name)),
    failNext: (name, error) => {
      failures.set(name, error);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
