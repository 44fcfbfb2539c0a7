import { PRIORITIES, type Priority } from "@hookflow/queue";
import { type LaneDemand, laneShares } from "./lane-shares.js";

const idle: LaneDemand = { waiting: 0, running: 0 };
const demandOf = (lanes: Partial<Record<Priority, LaneDemand>>) =>
  Object.fromEntries(PRIORITIES.map((lane) => [lane, lanes[lane] ?? idle])) as Record<
    Priority,
    LaneDemand
  >;

describe("laneShares", () => {
  it("gives the weights when every lane has a backlog", () => {
    const backlog = { waiting: 10_000, running: 0 };
    const shares = laneShares(
      200,
      demandOf({ 1: backlog, 2: backlog, 3: backlog, 4: backlog, 5: backlog }),
    );
    expect(shares).toEqual({ 1: 80, 2: 44, 3: 36, 4: 24, 5: 16 });
  });

  it("gives a lone backlog every slot the idle lanes do not hold", () => {
    const shares = laneShares(200, demandOf({ 3: { waiting: 10_000, running: 36 } }));
    expect(shares[3]).toBe(200);
    expect([shares[1], shares[2], shares[4], shares[5]]).toEqual([1, 1, 1, 1]);
  });

  it("never gives a lane more than it can use, and passes the rest on", () => {
    const shares = laneShares(
      100,
      demandOf({ 1: { waiting: 3, running: 2 }, 5: { waiting: 1_000, running: 10 } }),
    );
    expect(shares[1]).toBe(5);
    expect(shares[5]).toBe(95);
  });

  it("keeps what an idle lane is running, plus one slot for new work", () => {
    const shares = laneShares(
      50,
      demandOf({ 2: { waiting: 0, running: 7 }, 4: { waiting: 99, running: 0 } }),
    );
    expect(shares[2]).toBe(8);
    expect(shares[4]).toBe(43);
    expect(shares[4] + 7).toBe(50);
  });

  it("splits the slots no lane with work can use among the idle lanes, on top of one each", () => {
    const quiet = laneShares(200, demandOf({ 1: { waiting: 0, running: 10 } }));
    // 190 free slots, 38 for each of the five lanes (none has work waiting).
    expect(quiet).toEqual({ 1: 49, 2: 39, 3: 39, 4: 39, 5: 39 });
    const small = laneShares(100, demandOf({ 5: { waiting: 4, running: 0 } }));
    // Lane 5 takes the 4 it can use; the other 96 go to the four idle lanes.
    expect(small).toEqual({ 1: 25, 2: 25, 3: 25, 4: 25, 5: 4 });
    const busy = laneShares(100, demandOf({ 5: { waiting: 1_000, running: 0 } }));
    expect(busy).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 100 });
  });

  it("orders two backlogs by priority even with few slots", () => {
    const backlog = { waiting: 20, running: 0 };
    const shares = laneShares(6, demandOf({ 1: backlog, 5: backlog }));
    expect(shares[1]).toBe(5);
    expect(shares[5]).toBe(1);
  });

  it("keeps priority 1 ahead: with every lane backlogged its share is the largest", () => {
    const backlog = { waiting: 50, running: 0 };
    const shares = laneShares(
      20,
      demandOf({ 1: backlog, 2: backlog, 3: backlog, 4: backlog, 5: backlog }),
    );
    expect(shares[1]).toBeGreaterThan(shares[2]);
    expect(shares[2]).toBeGreaterThanOrEqual(shares[3]);
    expect(shares[5]).toBeGreaterThanOrEqual(1);
  });
});
