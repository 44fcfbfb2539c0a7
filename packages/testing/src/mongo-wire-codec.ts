import { BSON, type Document } from "bson";

export const OP_QUERY = 2004;
export const OP_MSG = 2013;
const OP_REPLY = 1;

/** The largest message the server takes (and announces in its `hello`). */
export const MAX_MESSAGE_BYTES = 48_000_000;

/** The fields of a message's 16-byte header that a reply needs. */
export function readHeader(message: Buffer): { requestId: number; opCode: number } {
  return { requestId: message.readInt32LE(4), opCode: message.readInt32LE(12) };
}

/** An OP_MSG's body with its kind-1 sections folded in as arrays. */
export function parseMsg(message: Buffer): Document {
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
    const { identifier, docs } = readSequence(message, offset + 4, sectionEnd);
    sequences[identifier] = docs;
    offset = sectionEnd;
  }
  return { ...body, ...sequences };
}

/** A kind-1 section from its identifier (at `start`) to `end`: the name and its documents. */
function readSequence(
  message: Buffer,
  start: number,
  end: number,
): { identifier: string; docs: Document[] } {
  const nameEnd = message.indexOf(0, start);
  const identifier = message.toString("utf8", start, nameEnd);
  let cursor = nameEnd + 1;
  const docs: Document[] = [];
  while (cursor < end) {
    const docSize = message.readInt32LE(cursor);
    docs.push(BSON.deserialize(message.subarray(cursor, cursor + docSize)));
    cursor += docSize;
  }
  return { identifier, docs };
}

/** A legacy OP_QUERY's namespace (`db.collection`) and query document. */
export function parseQuery(message: Buffer): { collection: string; body: Document } {
  // flags, fullCollectionName (cstring), numberToSkip, numberToReturn, query document.
  const nameEnd = message.indexOf(0, 20);
  const collection = message.toString("utf8", 20, nameEnd);
  const queryStart = nameEnd + 1 + 8;
  const size = message.readInt32LE(queryStart);
  const body = BSON.deserialize(message.subarray(queryStart, queryStart + size));
  return { collection, body };
}

/** An OP_MSG answering request `responseTo` with one kind-0 section. */
export function encodeMsgReply(responseTo: number, reply: Document): Buffer {
  const answer = BSON.serialize(reply);
  return frame(OP_MSG, responseTo, Buffer.concat([Buffer.alloc(4), Buffer.from([0]), answer]));
}

/** An OP_REPLY answering a legacy OP_QUERY with one document. */
export function encodeQueryReply(responseTo: number, reply: Document): Buffer {
  const doc = BSON.serialize(reply);
  const head = Buffer.alloc(20);
  head.writeInt32LE(0, 0); // responseFlags
  head.writeBigInt64LE(0n, 4); // cursorID
  head.writeInt32LE(0, 12); // startingFrom
  head.writeInt32LE(1, 16); // numberReturned
  return frame(OP_REPLY, responseTo, Buffer.concat([head, doc]));
}

function frame(opCode: number, responseTo: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + payload.length, 0);
  header.writeInt32LE(Math.floor(Math.random() * 2 ** 31), 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, payload]);
}
