import assert from "node:assert/strict";
import { isIP } from "node:net";
import { Hono } from "hono";
import {
  getClientIp,
  getIpVersion,
  parseIpLiteral,
  toRateLimitSubject,
} from "./client_ip.ts";

/** The client address a request is counted under, behind `hops` proxies. */
async function clientOf(hops: number, forwardedFor?: string): Promise<string> {
  const app = new Hono().get("/", (c) => c.text(getClientIp(c, hops)));
  const res = await app.request("/", {
    headers: forwardedFor === undefined ? {} : {
      "x-forwarded-for": forwardedFor,
    },
  });
  return await res.text();
}

Deno.test("getClientIp", async (t) => {
  await t.step(
    "without trusted proxies X-Forwarded-For is ignored",
    async () => {
      assert.equal(await clientOf(0, "203.0.113.7"), "unknown");
    },
  );

  await t.step(
    "behind one proxy the client is the entry it appended: the rightmost",
    async () => {
      assert.equal(await clientOf(1, "203.0.113.7"), "203.0.113.7");
      // What the client wrote itself stays to the left and is not believed.
      assert.equal(
        await clientOf(1, "203.0.113.99, 198.51.100.7"),
        "198.51.100.7",
      );
      assert.equal(
        await clientOf(2, "203.0.113.99, 198.51.100.7, 10.0.0.2"),
        "198.51.100.7",
      );
      // Fewer entries than proxies: the leftmost one there is.
      assert.equal(await clientOf(3, "198.51.100.7, 10.0.0.2"), "198.51.100.7");
    },
  );

  await t.step(
    "only an IP literal counts; anything else falls back to the connection",
    async () => {
      for (
        const entry of [
          "not-an-ip",
          "198.51.100.7.evil",
          "999.1.1.1",
          "unknown",
          "x".repeat(20_000),
          "<script>",
          "",
        ]
      ) {
        assert.equal(await clientOf(1, entry), "unknown", entry.slice(0, 40));
      }
    },
  );

  await t.step("ports and brackets are read as proxies write them", () => {
    assert.equal(parseIpLiteral(" 203.0.113.7:51234 "), "203.0.113.7");
    assert.equal(parseIpLiteral("[2001:db8::1]:443"), "2001:db8::1");
    assert.equal(parseIpLiteral("2001:db8::1"), "2001:db8::1");
    assert.equal(parseIpLiteral("[203.0.113.7]"), undefined);
  });

  await t.step("IPv6 counts per /64", async () => {
    assert.equal(
      await clientOf(1, "2001:db8:1:2:aaaa::1"),
      "2001:db8:1:2::/64",
    );
    assert.equal(toRateLimitSubject("::ffff:203.0.113.7"), "203.0.113.7");
  });
});

Deno.test("getIpVersion says what node:net's isIP says", () => {
  const samples = [
    "203.0.113.7",
    "0.0.0.0",
    "255.255.255.255",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.4.5",
    "0x7f.0.0.1",
    "127.1",
    "2001:db8::1",
    "::",
    "::1",
    "::ffff:192.0.2.1",
    "2001:db8:0:0:0:0:2:1",
    "2001:db8::2::1",
    "2001:db8:::1",
    "12345::1",
    "2001:db8::g",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "fe80::1%eth0",
    "2001:db8::1\t",
    "",
    "localhost",
    "[::1]",
  ];
  for (const sample of samples) {
    // node:net takes an IPv6 zone; a forwarded address never needs one.
    const expected = sample.includes("%") ? 0 : isIP(sample);
    assert.equal(getIpVersion(sample), expected, sample);
  }
});
