import { Readable } from "node:stream";
import { readHead, utf8Head } from "./response-head.js";

describe("utf8Head", () => {
  it("keeps a body within the limit whole", () => {
    expect(utf8Head(Buffer.from("héllo"), 6)).toBe("héllo");
    expect(utf8Head(Buffer.from("hello"), 5)).toBe("hello");
  });

  it("cuts at the limit, dropping a character of 2, 3 or 4 bytes the limit splits", () => {
    for (const char of ["é", "€", "😀"]) {
      const bytes = Buffer.byteLength(char);
      const text = `ab${char}cd`;
      // Every cut inside the character drops it; a cut after it keeps it.
      for (let cut = 3; cut < 2 + bytes; cut++) expect(utf8Head(Buffer.from(text), cut)).toBe("ab");
      expect(utf8Head(Buffer.from(text), 2 + bytes)).toBe(`ab${char}`);
      expect(utf8Head(Buffer.from(text), 2)).toBe("ab");
    }
  });

  it("keeps invalid bytes as replacement characters, as a decoder does", () => {
    expect(utf8Head(Buffer.from([0x61, 0xff, 0x62]), 10)).toBe("a\ufffdb");
  });
});

describe("readHead", () => {
  it("reads a body that ends before the limit", async () => {
    const body = Readable.from([Buffer.from("ab"), Buffer.from("cd")]);
    expect((await readHead(body, 100)).toString()).toBe("abcd");
  });

  it("stops an endless body at the limit and destroys the stream", async () => {
    let sent = 0;
    const body = new Readable({
      read() {
        sent += 1024;
        this.push(Buffer.alloc(1024, 0x61));
      },
    });
    const head = await readHead(body, 4096);
    expect(head.length).toBe(4096);
    expect(body.destroyed).toBe(true);
    expect(sent).toBeLessThan(64 * 1024);
  });

  it("rejects when the body fails before its end", async () => {
    const body = new Readable({ read() {} });
    const read = readHead(body, 4096);
    body.push(Buffer.from("partial"));
    body.destroy(new Error("socket hang up"));
    await expect(read).rejects.toThrow("socket hang up");
  });
});
