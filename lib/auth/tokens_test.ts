import assert from "node:assert/strict";
import * as jose from "jose";
import {
  createTokenVerifier,
  MAX_OWN_TOKEN_LIFETIME_SECONDS,
  SELF_AUDIENCE,
  SELF_ISSUER,
  signOwnToken,
} from "./tokens.ts";
import {
  ServiceUnavailableError,
  UnauthorizedError,
} from "@/lib/errors/mod.ts";

const ownSecret = crypto.getRandomValues(new Uint8Array(32));
const externalSecret = "a-supabase-style-project-secret-of-enough-length";
const userId = "5f0c8a4e-2b7d-4c1e-9a3f-0d6b2e8c4a11";
const ISSUER = "https://idp.example/auth/v1";
const AUDIENCE = "authenticated";

async function assertRejected(promise: Promise<unknown>, message: RegExp) {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(
      error instanceof UnauthorizedError,
      `${error.name}: ${error.message}`,
    );
    assert.equal(error.status, 401);
    assert.match(error.details, message);
    return true;
  });
}

function signExternal(
  key: Uint8Array | CryptoKey,
  alg: string,
  claims: jose.JWTPayload = {},
) {
  return new jose.SignJWT({ ...claims })
    .setProtectedHeader({ alg, kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);
}

Deno.test("auth: the service's own tokens", async (t) => {
  const verifier = createTokenVerifier({ ownSecret });

  await t.step("a valid token gives its subject", async () => {
    assert.deepEqual(
      await verifier.verify(await signOwnToken(ownSecret, userId)),
      { id: userId },
    );
  });

  await t.step(
    "a token verified before is refused once it expires or its session ends",
    async () => {
      let clock = new Date();
      let sessionLive = true;
      const remembering = createTokenVerifier({
        ownSecret,
        now: () => clock,
        getStanding: () => Promise.resolve({ erased: false, sessionLive }),
      });
      const token = await signOwnToken(ownSecret, userId, {
        now: clock,
        expiresInSeconds: 60,
        sessionHandle: "s1",
      });
      assert.deepEqual(await remembering.verify(token), { id: userId });
      assert.deepEqual(await remembering.verify(token), { id: userId });
      sessionLive = false;
      await assertRejected(remembering.verify(token), /sesión/);
      sessionLive = true;
      clock = new Date(clock.getTime() + 61_000);
      await assertRejected(remembering.verify(token), /caducado/);
      // A tampered copy of a remembered token is checked anew.
      clock = new Date(clock.getTime() - 61_000);
      await assertRejected(remembering.verify(`${token}x`), /firma|JWT/);
    },
  );

  await t.step("an expired token is refused", async () => {
    const token = await signOwnToken(ownSecret, userId, {
      now: new Date(Date.now() - 2 * 3600_000),
    });
    await assertRejected(verifier.verify(token), /caducado/);
  });

  await t.step("a token signed with another key is refused", async () => {
    const other = crypto.getRandomValues(new Uint8Array(32));
    await assertRejected(
      verifier.verify(await signOwnToken(other, userId)),
      /firma/,
    );
  });

  await t.step("alg none is refused", async () => {
    const token = new jose.UnsecuredJWT({ sub: userId })
      .setIssuer(SELF_ISSUER).setAudience(SELF_AUDIENCE).setExpirationTime("5m")
      .encode();
    await assertRejected(verifier.verify(token), /firma/);
  });

  await t.step("a token without exp is refused", async () => {
    const token = await new jose.SignJWT({}).setProtectedHeader({
      alg: "HS256",
    })
      .setIssuer(SELF_ISSUER).setAudience(SELF_AUDIENCE).setSubject(userId)
      .sign(ownSecret);
    await assertRejected(verifier.verify(token), /exp/);
  });

  await t.step("garbage is refused", async () => {
    for (
      const token of ["abc", "abc.def.ghi", "", "eyJhbGciOiJIUzI1NiJ9..", "a.b"]
    ) {
      await assertRejected(verifier.verify(token), /JWT|firma/);
    }
  });

  await t.step(
    "a token of more than 30 days is refused, and signOwnToken will not make one",
    async () => {
      const forever = await new jose.SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(SELF_ISSUER).setAudience(SELF_AUDIENCE).setSubject(userId)
        .setIssuedAt().setExpirationTime("100000h")
        .sign(ownSecret);
      await assertRejected(verifier.verify(forever), /dura más/);
      await assert.rejects(
        signOwnToken(ownSecret, userId, {
          expiresInSeconds: MAX_OWN_TOKEN_LIFETIME_SECONDS + 1,
        }),
        RangeError,
      );
      assert.deepEqual(
        await verifier.verify(
          await signOwnToken(ownSecret, userId, {
            expiresInSeconds: MAX_OWN_TOKEN_LIFETIME_SECONDS,
          }),
        ),
        { id: userId },
      );
    },
  );

  await t.step(
    "a token issued more than a minute in the future is refused",
    async () => {
      const ahead = (seconds: number) =>
        signOwnToken(ownSecret, userId, {
          now: new Date(Date.now() + seconds * 1000),
        });
      await assertRejected(verifier.verify(await ahead(120)), /futuro/);
      assert.deepEqual(await verifier.verify(await ahead(30)), { id: userId });
    },
  );

  await t.step("a token without iat is refused", async () => {
    const token = await new jose.SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(SELF_ISSUER).setAudience(SELF_AUDIENCE).setSubject(userId)
      .setExpirationTime("5m")
      .sign(ownSecret);
    await assertRejected(verifier.verify(token), /iat/);
  });

  await t.step(
    "a page token lives only as long as its session",
    async () => {
      const live = new Set(["h-live"]);
      const sessions = createTokenVerifier({
        ownSecret,
        getStanding: (_userId, handle) =>
          Promise.resolve({
            erased: false,
            sessionLive: handle !== undefined && live.has(handle),
          }),
      });
      const token = await signOwnToken(ownSecret, userId, {
        sessionHandle: "h-live",
      });
      assert.deepEqual(await sessions.verify(token), { id: userId });
      live.delete("h-live");
      await assertRejected(sessions.verify(token), /sesión/);
      // A verifier that cannot look sessions up refuses session tokens.
      await assertRejected(verifier.verify(token), /sesión/);
    },
  );

  await t.step(
    "every token of an erased user id is refused, own and external, with or without a session",
    async () => {
      const erased = new Set<string>();
      const standing = createTokenVerifier({
        ownSecret,
        secret: externalSecret,
        issuer: ISSUER,
        audience: AUDIENCE,
        getStanding: (id) =>
          Promise.resolve({ erased: erased.has(id), sessionLive: true }),
      });
      const tokens = [
        await signOwnToken(ownSecret, userId),
        await signOwnToken(ownSecret, userId, { sessionHandle: "h-live" }),
        await signExternal(new TextEncoder().encode(externalSecret), "HS256"),
      ];
      for (const token of tokens) {
        assert.deepEqual(await standing.verify(token), { id: userId });
      }
      erased.add(userId);
      for (const token of tokens) {
        await assertRejected(standing.verify(token), /borró/);
      }
      // A new token of the same id, too.
      await assertRejected(
        standing.verify(await signOwnToken(ownSecret, userId)),
        /borró/,
      );
    },
  );

  await t.step(
    "a caller that checks erasure itself skips the read, but never a session's",
    async () => {
      const reads: Array<string | undefined> = [];
      const standing = createTokenVerifier({
        ownSecret,
        getStanding: (_id, handle) => {
          reads.push(handle);
          return Promise.resolve({ erased: true, sessionLive: false });
        },
      });
      const options = { erasureCheckedByCaller: true };
      assert.deepEqual(
        await standing.verify(await signOwnToken(ownSecret, userId), options),
        { id: userId },
      );
      assert.deepEqual(reads, []);
      const sessionToken = await signOwnToken(ownSecret, userId, {
        sessionHandle: "h-gone",
      });
      await assertRejected(standing.verify(sessionToken, options), /borró/);
      assert.deepEqual(reads, ["h-gone"]);
    },
  );

  await t.step(
    "without external configuration, external tokens are refused",
    async () => {
      const token = await signExternal(
        new TextEncoder().encode(externalSecret),
        "HS256",
      );
      await assertRejected(verifier.verify(token), /Algoritmo/);
    },
  );
});

Deno.test("auth: an external HS256 secret (e.g. Supabase)", async (t) => {
  const verifier = createTokenVerifier({
    ownSecret,
    secret: externalSecret,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  const key = new TextEncoder().encode(externalSecret);

  await t.step("a valid token gives its subject", async () => {
    assert.deepEqual(await verifier.verify(await signExternal(key, "HS256")), {
      id: userId,
    });
  });

  await t.step("wrong issuer and wrong audience are refused", async () => {
    const wrongIssuer = await new jose.SignJWT({}).setProtectedHeader({
      alg: "HS256",
    })
      .setIssuer("https://evil.example").setAudience(AUDIENCE).setSubject(
        userId,
      )
      .setExpirationTime("5m").sign(key);
    await assertRejected(verifier.verify(wrongIssuer), /iss/);
    const wrongAudience = await new jose.SignJWT({}).setProtectedHeader({
      alg: "HS256",
    })
      .setIssuer(ISSUER).setAudience("someone-else").setSubject(userId)
      .setExpirationTime("5m").sign(key);
    await assertRejected(verifier.verify(wrongAudience), /aud/);
  });

  await t.step(
    "a token issued more than a minute in the future is refused",
    async () => {
      const future = await new jose.SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(ISSUER).setAudience(AUDIENCE).setSubject(userId)
        .setIssuedAt(Math.floor(Date.now() / 1000) + 3600)
        .setExpirationTime("2h").sign(key);
      await assertRejected(verifier.verify(future), /futuro/);
    },
  );

  await t.step("HS384 is not on the allow-list", async () => {
    await assertRejected(
      verifier.verify(await signExternal(key, "HS384")),
      /firma/,
    );
  });

  await t.step(
    "a token claiming the service's issuer must carry the service's key",
    async () => {
      const forged = await new jose.SignJWT({}).setProtectedHeader({
        alg: "HS256",
      })
        .setIssuer(SELF_ISSUER).setAudience(SELF_AUDIENCE).setSubject(userId)
        .setExpirationTime("5m").sign(key);
      await assertRejected(verifier.verify(forged), /firma/);
    },
  );
});

Deno.test("auth: an external JWKS (asymmetric keys)", async (t) => {
  const { publicKey, privateKey } = await jose.generateKeyPair("RS256", {
    extractable: true,
  });
  const jwk = {
    ...(await jose.exportJWK(publicKey)),
    kid: "k1",
    alg: "RS256",
    use: "sig",
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ keys: [jwk] }),
  );
  const jwksUrl = `http://127.0.0.1:${server.addr.port}/jwks`;
  const verifier = createTokenVerifier({
    ownSecret,
    jwksUrl,
    issuer: ISSUER,
    audience: AUDIENCE,
  });

  await t.step(
    "an RS256 token signed by the provider is accepted",
    async () => {
      assert.deepEqual(
        await verifier.verify(await signExternal(privateKey, "RS256")),
        {
          id: userId,
        },
      );
    },
  );

  await t.step(
    "HS/RS confusion: HS256 signed with the public key is refused",
    async () => {
      const pem = new TextEncoder().encode(await jose.exportSPKI(publicKey));
      await assertRejected(
        verifier.verify(await signExternal(pem, "HS256")),
        /Algoritmo/,
      );
    },
  );

  await t.step("a token signed by another key pair is refused", async () => {
    const other = await jose.generateKeyPair("RS256");
    await assertRejected(
      verifier.verify(await signExternal(other.privateKey, "RS256")),
      /firma/,
    );
  });

  await server.shutdown();

  await t.step("an unreachable JWKS is a 503, not a 401", async () => {
    const down = createTokenVerifier({
      ownSecret,
      jwksUrl,
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    await assert.rejects(
      down.verify(await signExternal(privateKey, "RS256")),
      ServiceUnavailableError,
    );
  });
});
