/**
 * A small keep-alive HTTP/1.1 load client for GET reads, for machines
 * without `wrk`: `connections` sockets, each sending one request at a time
 * from a new client address (`X-Forwarded-For: 10.<salt>.<hi>.<lo>`, as
 * bench/lua/get.lua does) for `seconds`. It prints the same `WRK_JSON`
 * line bench/lua/common.lua prints, so measure.ts reads either.
 *
 *   deno run -A bench/load/get_client.ts <url> <connections> <seconds> <salt>
 *   deno run -A bench/load/get_client.ts <url> <connections> <seconds> <salt> \
 *     verify <users file> <codes file>
 *
 * With `verify`, each request is `POST <url>` with bench/lua/verify.lua's
 * body and token: request i is user u = i mod U with the guide code of
 * attraction (u + k) mod 17, k = i div U, so every request is a new visit.
 *
 * Raw sockets, no `fetch`: one core of this client answers several times
 * what the service does, so the bare server's figure is the server's, not
 * the client's (a ratio near 1 would otherwise mean nothing).
 */

const encoder = new TextEncoder();
const CRLFCRLF = [13, 10, 13, 10];

interface Counts {
  requests: number;
  bytes: number;
  status: number;
  read: number;
  connect: number;
  latenciesUs: number[];
}

function ip(salt: number, i: number): string {
  return `10.${(salt + Math.floor(i / 65536)) % 256}.${
    Math.floor(i / 256) % 256
  }.${i % 256}`;
}

function findHeadEnd(buf: Uint8Array, from: number, to: number): number {
  for (let i = Math.max(0, from - 3); i + 3 < to; i++) {
    if (
      buf[i] === CRLFCRLF[0] && buf[i + 1] === CRLFCRLF[1] &&
      buf[i + 2] === CRLFCRLF[2] && buf[i + 3] === CRLFCRLF[3]
    ) return i;
  }
  return -1;
}

/** Builds request i's bytes (its client address included). */
type MakeRequest = (i: number) => Uint8Array;

/** get.lua's request: a GET of the URL from a new address. */
function getRequests(url: URL, salt: number): MakeRequest {
  const target = `${url.pathname}${url.search}`;
  return (i) =>
    encoder.encode(
      `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nX-Forwarded-For: ${
        ip(salt, i)
      }\r\n\r\n`,
    );
}

/** verify.lua's requests: fresh users, fresh codes (see the module doc). */
async function verifyRequests(
  url: URL,
  salt: number,
  usersFile: string,
  codesFile: string,
): Promise<MakeRequest> {
  const lines = (text: string) => text.split("\n").filter((l) => l !== "");
  const users = lines(await Deno.readTextFile(usersFile)).map((line) =>
    line.split(" ")
  );
  const codes = lines(await Deno.readTextFile(codesFile));
  const target = `${url.pathname}${url.search}`;
  return (i) => {
    const n = users.length;
    const u = i % n;
    const k = Math.floor(i / n);
    const [id, token] = users[u];
    const body = `{"code":"${codes[(u + k) % codes.length]}","userId":"${id}"}`;
    return encoder.encode(
      `POST ${target} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Content-Type: application/json\r\nAuthorization: Bearer ${token}\r\n` +
        `X-Forwarded-For: ${ip(salt, i)}\r\n` +
        `Content-Length: ${encoder.encode(body).length}\r\n\r\n${body}`,
    );
  };
}

async function drive(
  url: URL,
  deadline: number,
  make: MakeRequest,
  next: () => number,
  counts: Counts,
): Promise<void> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({
      hostname: url.hostname,
      port: Number(url.port),
    });
  } catch {
    counts.connect++;
    return;
  }
  let buf = new Uint8Array(256 * 1024);
  let have = 0;
  try {
    while (performance.now() < deadline) {
      const request = make(next());
      const started = performance.now();
      let written = 0;
      while (written < request.length) {
        written += await conn.write(request.subarray(written));
      }
      // The head, then as many body bytes as Content-Length says.
      let headEnd = -1;
      let scanned = 0;
      let total = -1;
      for (;;) {
        if (headEnd < 0) {
          headEnd = findHeadEnd(buf, scanned, have);
          scanned = have;
          if (headEnd >= 0) {
            const head = new TextDecoder().decode(buf.subarray(0, headEnd));
            const status = Number(head.slice(9, 12));
            if (status < 200 || status >= 400) counts.status++;
            const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            if (!length) throw new Error(`no Content-Length:\n${head}`);
            total = headEnd + 4 + Number(length[1]);
            if (total > buf.length) {
              const bigger = new Uint8Array(total * 2);
              bigger.set(buf.subarray(0, have));
              buf = bigger;
            }
          }
        }
        if (total >= 0 && have >= total) break;
        const n = await conn.read(buf.subarray(have));
        if (n === null) throw new Error("closed");
        have += n;
      }
      counts.requests++;
      counts.bytes += total;
      counts.latenciesUs.push((performance.now() - started) * 1000);
      buf.copyWithin(0, total, have);
      have -= total;
    }
  } catch {
    counts.read++;
  } finally {
    conn.close();
  }
}

if (import.meta.main) {
  const [url, connections, seconds, salt, mode, ...files] = Deno.args;
  const target = new URL(url);
  const make = mode === "verify"
    ? await verifyRequests(target, Number(salt), files[0], files[1])
    : getRequests(target, Number(salt));
  const counts: Counts = {
    requests: 0,
    bytes: 0,
    status: 0,
    read: 0,
    connect: 0,
    latenciesUs: [],
  };
  let i = 0;
  const started = performance.now();
  const deadline = started + Number(seconds) * 1000;
  await Promise.all(
    Array.from(
      { length: Number(connections) },
      () => drive(target, deadline, make, () => i++, counts),
    ),
  );
  const durationUs = (performance.now() - started) * 1000;
  const sorted = counts.latenciesUs.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(
      sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0,
    );
  console.log(
    `\nWRK_JSON ${
      JSON.stringify({
        requests: counts.requests,
        duration_us: Math.round(durationUs),
        bytes: counts.bytes,
        connect: counts.connect,
        read: counts.read,
        write: 0,
        status: counts.status,
        timeout: 0,
        p50_us: at(0.5),
        p90_us: at(0.9),
        p99_us: at(0.99),
        max_us: Math.round(sorted.at(-1) ?? 0),
        mean_us: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
      })
    }`,
  );
}
