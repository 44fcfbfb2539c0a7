import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import type { Document } from "bson";
import {
  encodeMsgReply,
  encodeQueryReply,
  MAX_MESSAGE_BYTES,
  OP_MSG,
  OP_QUERY,
  parseMsg,
  parseQuery,
  readHeader,
} from "./mongo-wire-codec.js";

/** A command the server received, with its document sequences (`documents`, `updates`) folded in. */
export interface MongoCommand {
  name: string;
  db: string;
  body: Document;
}

/** An error reply queued by `failNext`. */
interface MongoFailure {
  code: number;
  errmsg: string;
}

export interface MongoWireServer {
  /** `mongodb://127.0.0.1:<port>/`: one standalone server, no authentication. */
  uri: string;
  commands: MongoCommand[];
  /** Commands other than the handshake, pings and session bookkeeping. */
  writes: () => MongoCommand[];
  /** Answers the next command of that name with this error instead. */
  failNext: (name: string, error: MongoFailure) => void;
  close: () => Promise<void>;
}

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

/** What the server has seen and been told, shared by its connections. */
interface WireServerState {
  commands: MongoCommand[];
  failures: Map<string, MongoFailure>;
  sockets: Set<Socket>;
  connections: number;
}

/** One client connection and the bytes of its next, still incomplete, message. */
interface WireConnection {
  socket: Socket;
  id: number;
  pending: Buffer;
}

/**
 * An in-process server speaking enough of MongoDB's wire protocol for the official driver to
 * write with it: OP_MSG (and the legacy OP_QUERY handshake), `hello`, `ping`, `insert`, `update`,
 * `endSessions`. It stores nothing; it records every command so tests check what the driver sent.
 */
export async function startMongoWireServer(): Promise<MongoWireServer> {
  const state: WireServerState = {
    commands: [],
    failures: new Map(),
    sockets: new Set(),
    connections: 0,
  };
  const server = createServer((socket) => acceptConnection(state, socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    commands: state.commands,
    writes: () => state.commands.filter((command) => !HANDSHAKE.has(command.name)),
    failNext: (name, error) => {
      state.failures.set(name, error);
    },
    close: async () => {
      for (const socket of state.sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

function acceptConnection(state: WireServerState, socket: Socket): void {
  state.sockets.add(socket);
  socket.on("close", () => state.sockets.delete(socket));
  socket.on("error", () => socket.destroy());
  state.connections += 1;
  const connection: WireConnection = { socket, id: state.connections, pending: Buffer.alloc(0) };
  socket.on("data", (chunk: Buffer) => readChunk(state, connection, chunk));
}

/** Answers every complete message buffered so far; a length out of bounds drops the client. */
function readChunk(state: WireServerState, connection: WireConnection, chunk: Buffer): void {
  connection.pending = Buffer.concat([connection.pending, chunk]);
  while (connection.pending.length >= 4) {
    const length = connection.pending.readInt32LE(0);
    if (length < 16 || length > MAX_MESSAGE_BYTES) {
      connection.socket.destroy();
      return;
    }
    if (connection.pending.length < length) break;
    const message = connection.pending.subarray(0, length);
    connection.pending = connection.pending.subarray(length);
    handleMessage(state, connection, message);
  }
}

/** Records an OP_MSG or OP_QUERY command and answers it; other op codes drop the client. */
function handleMessage(state: WireServerState, connection: WireConnection, message: Buffer): void {
  const { requestId, opCode } = readHeader(message);
  if (opCode === OP_MSG) {
    const body = parseMsg(message);
    const name = Object.keys(body)[0] ?? "";
    state.commands.push({ name, db: String(body.$db ?? ""), body });
    connection.socket.write(encodeMsgReply(requestId, replyTo(state, name, body, connection.id)));
    return;
  }
  if (opCode === OP_QUERY) {
    const { collection, body } = parseQuery(message);
    const name = Object.keys(body)[0] ?? "";
    state.commands.push({ name, db: collection.split(".")[0] ?? "", body });
    connection.socket.write(encodeQueryReply(requestId, replyTo(state, name, body, connection.id)));
    return;
  }
  connection.socket.destroy();
}

/** The failure queued by `failNext` for this command (used once), else the normal answer. */
function replyTo(
  state: WireServerState,
  name: string,
  body: Document,
  connectionId: number,
): Document {
  const failure = state.failures.get(name);
  if (failure) {
    state.failures.delete(name);
    return { ok: 0, ...failure };
  }
  return answerOf(name, body, connectionId);
}

function answerOf(name: string, body: Document, connectionId: number): Document {
  switch (name) {
    case "hello":
    case "ismaster":
    case "isMaster":
      return helloOf(connectionId);
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
}

/** A writable standalone primary, so the driver writes to it without a replica set. */
function helloOf(connectionId: number): Document {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: MAX_MESSAGE_BYTES,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}
