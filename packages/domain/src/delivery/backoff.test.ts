import {
  MAX_RETRY_DELAY_MS,
  nextAttemptDelayMs,
  parseRetryAfter,
  retryDelayMs,
} from "./backoff.js";

const base = { retryDelaySeconds: 60, backoffMultiplier: 2, delayScale: 1 };
const mid = () => 0.5;
const low = () => 0;
const high = () => 0.999_999;

describe("retryDelayMs", () => {
  it.each([
    [2, 60_000],
    [3, 120_000],
    [4, 240_000],
    [5, 480_000],
  ])("waits the base delay times the multiplier for attempt %i", (attempt, expected) => {
    expect(retryDelayMs({ ...base, attempt, random: mid })).toBe(expected);
  });

  it("keeps the jitter within 10 percent either way", () => {
    expect(retryDelayMs({ ...base, attempt: 2, random: low })).toBe(54_000);
    expect(retryDelayMs({ ...base, attempt: 2, random: high })).toBe(66_000);
  });

  it("caps the delay at 24 hours, even with jitter", () => {
    expect(retryDelayMs({ ...base, attempt: 20, random: high })).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs({ ...base, backoffMultiplier: 10, attempt: 400, random: mid })).toBe(
      MAX_RETRY_DELAY_MS,
    );
  });

  it("multiplies the wait by the delay scale", () => {
    expect(retryDelayMs({ ...base, attempt: 3, delayScale: 0.01, random: mid })).toBe(1_200);
    expect(retryDelayMs({ ...base, attempt: 30, delayScale: 0.001, random: mid })).toBe(86_400);
  });

  it("treats a multiplier of 1 as a constant delay", () => {
    expect(retryDelayMs({ ...base, backoffMultiplier: 1, attempt: 7, random: mid })).toBe(60_000);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-01-01T00:00:00Z");

  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["Mon, 01 Jan 2024 00:00:30 GMT", 30_000],
    ["Sun, 31 Dec 2023 23:00:00 GMT", 0],
    ["999999999", MAX_RETRY_DELAY_MS],
    ["Fri, 01 Mar 2024 00:00:00 GMT", MAX_RETRY_DELAY_MS],
    ["", null],
    ["soon", null],
    ["-5", null],
    ["1.5", null],
    [undefined, null],
  ])("reads %j as %j", (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe("nextAttemptDelayMs", () => {
  const now = 1_700_000_000_000;
  const input = { ...base, attempt: 2, random: mid, nowMs: now };

  it("raises the wait to Retry-After on a 429 or 503", () => {
    expect(nextAttemptDelayMs({ ...input, statusCode: 429, retryAfter: "600" })).toBe(600_000);
    expect(nextAttemptDelayMs({ ...input, statusCode: 503, retryAfter: "600" })).toBe(600_000);
  });

  it("keeps the longer backoff when Retry-After is shorter", () => {
    expect(nextAttemptDelayMs({ ...input, statusCode: 429, retryAfter: "5" })).toBe(60_000);
  });

  it("ignores Retry-After on other statuses", () => {
    expect(nextAttemptDelayMs({ ...input, statusCode: 500, retryAfter: "600" })).toBe(60_000);
    expect(nextAttemptDelayMs({ ...input, statusCode: 0, retryAfter: undefined })).toBe(60_000);
  });

  it("does not scale the receiver's Retry-After minimum", () => {
    const scaled = { ...input, delayScale: 0.001, statusCode: 503, retryAfter: "2" };
    expect(nextAttemptDelayMs(scaled)).toBe(2_000);
  });
});
