import { describeOwnerScope, ownerScopeKey, ownerScopeOf, sameOwnerScope } from "./owner-scope.js";

const personal = (ownerId: string) => ({ ownerId, organizationId: null });
const inOrg = (ownerId: string, organizationId: string) => ({ ownerId, organizationId });

describe("owner scopes", () => {
  it.each([
    ["two personal records of one user", personal("usr_a"), personal("usr_a"), true],
    ["personal records of two users", personal("usr_a"), personal("usr_b"), false],
    [
      "records of one organization by two creators",
      inOrg("usr_a", "org_1"),
      inOrg("usr_b", "org_1"),
      true,
    ],
    ["records of two organizations", inOrg("usr_a", "org_1"), inOrg("usr_a", "org_2"), false],
    [
      "a personal record and its creator's organization record",
      personal("usr_a"),
      inOrg("usr_a", "org_1"),
      false,
    ],
  ])("%s: same scope is %s", (_what, a, b, same) => {
    expect(sameOwnerScope(a, b)).toBe(same);
    expect(sameOwnerScope(b, a)).toBe(same);
  });

  it("names and keys a scope", () => {
    expect(ownerScopeOf(inOrg("usr_a", "org_1"))).toEqual({ organizationId: "org_1" });
    expect(ownerScopeOf(personal("usr_a"))).toEqual({ personalOf: "usr_a" });
    expect(ownerScopeKey({ organizationId: "org_1" })).toBe("org:org_1");
    expect(ownerScopeKey({ personalOf: "usr_a" })).toBe("user:usr_a");
    expect(describeOwnerScope({ organizationId: "org_1" })).toBe("organization org_1");
    expect(describeOwnerScope({ personalOf: "usr_a" })).toBe("the personal space of usr_a");
  });
});
