/**
 * The service as Deno Deploy runs it: the committed tree (nothing untracked
 * or ignored), Deploy's build step (`deno install`, `deno task build`), then
 * `main.ts` with only read, net and env permissions, `DENO_DEPLOYMENT_ID` set
 * and the platform's KV (`Deno.openKv()` without a path). Pages get the
 * built styles and islands; tickets, share cards and verifications work.
 * Without the build step the start fails at once with one clear line.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import * as jose from "jose";
import {
  getFreePort,
  postJsonTo,
  ROOT,
  serviceEnv,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { randomUserId, ticketBody } from "../test_utils.ts";

const DENO_ARGS = ["run", "--allow-read", "--allow-net", "--allow-env"];
const SECRET = `deploy-test-secret-${crypto.randomUUID()}`;
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Runs a command to its end: exit code, stdout, and output (both). */
async function run(cmd: string, args: string[], cwd = ROOT) {
  const { code, stdout, stderr } = await new Deno.Command(cmd, {
    args,
    cwd,
    env: serviceEnv({}),
    clearEnv: true,
    stdin: "null",
  }).output();
  const out = new TextDecoder().decode(stdout);
  return { code, stdout: out, output: out + new TextDecoder().decode(stderr) };
}

/** Why these tests cannot run here, or undefined. */
function whyNoGit(): string | undefined {
  try {
    const { success } = new Deno.Command("git", {
      args: ["-C", ROOT, "rev-parse", "--is-inside-work-tree"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return success ? undefined : `${ROOT} is not a git repository`;
  } catch {
    return "git is not available";
  }
}
const skip = whyNoGit();
const ignore = skip !== undefined;
if (skip) console.warn(`tests/operations/deploy_test.ts is skipped: ${skip}`);

/** A temp copy of the tree and the services started in it. */
interface Tree extends AsyncDisposable {
  dir: string;
  services: ServiceProcess[];
}

/**
 * Locally, `Deno.openKv()` without a path opens a file in Deno's origin
 * storage, named after the project's deno.json: removed with the tree.
 */
async function removePlatformKv(dir: string): Promise<void> {
  const info = await run(Deno.execPath(), ["info", "--json"]);
  const { originStorage } = JSON.parse(info.stdout);
  const key = pathToFileURL(`${dir}/deno.json`).href;
  const hash = createHash("sha256").update(key).digest("hex");
  await Deno.remove(`${originStorage}/${hash}`, { recursive: true })
    .catch(() => {});
}

/** A temp dir with the tracked tree, uncommitted changes included. */
async function archiveTree(): Promise<Tree> {
  const dir = await Deno.makeTempDir({ prefix: "turismo-deploy-" });
  const tree: Tree = {
    dir,
    services: [],
    async [Symbol.asyncDispose]() {
      await stopServices(tree.services);
      await removePlatformKv(dir);
      await Deno.remove(dir, { recursive: true });
    },
  };
  try {
    const rev = (await run("git", ["stash", "create"])).stdout.trim();
    const archive = ["archive", "-o", `${dir}/.tar`, rev || "HEAD"];
    const archived = await run("git", archive);
    assert.equal(archived.code, 0, archived.output);
    const extracted = await run("tar", ["-xf", `${dir}/.tar`, "-C", dir]);
    assert.equal(extracted.code, 0, extracted.output);
    await Deno.remove(`${dir}/.tar`);
    // Files not committed yet (ignored ones, like static/build/, stay out).
    // In a clean checkout, as in CI, there are none: the tree is exactly
    // the committed one.
    const others = ["ls-files", "-z", "--others", "--exclude-standard"];
    for (const path of (await run("git", others)).stdout.split("\0")) {
      if (!path) continue;
      const to = `${dir}/${path}`;
      await Deno.mkdir(to.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.copyFile(`${ROOT}/${path}`, to);
    }
  } catch (error) {
    await tree[Symbol.asyncDispose]();
    throw error;
  }
  return tree;
}

/** Starts the service in the tree as Deploy does. */
async function startDeployed(tree: Tree, env: Record<string, string> = {}) {
  const service = startService({
    cwd: tree.dir,
    port: await getFreePort(),
    denoArgs: [...DENO_ARGS, "main.ts"],
    env: {
      DENO_DEPLOYMENT_ID: "test-deploy",
      LISTEN_HOST: "127.0.0.1",
      LOG_REQUESTS: "false",
      ...env,
    },
  });
  tree.services.push(service);
  return service;
}

const typeOf = (res: Response) => res.headers.get("content-type") ?? "";

Deno.test("built and run as on Deno Deploy", { ignore }, async (t) => {
  await using tree = await archiveTree();
  const manifestPath = `${tree.dir}/static/build/manifest.json`;
  await t.step("Deploy's install and build steps succeed", async () => {
    for (const args of [["install"], ["task", "build"]]) {
      const { code, output } = await run(Deno.execPath(), args, tree.dir);
      assert.equal(code, 0, `deno ${args.join(" ")}:\n${output}`);
    }
    assert.ok((await Deno.stat(manifestPath)).isFile);
    // The data set validated once, here: a start loads the record.
    const records = await Array.fromAsync(
      Deno.readDir(`${tree.dir}/build/checked-data`),
    );
    assert.equal(records.length, 1);
    const data = await Deno.readTextFile(`${tree.dir}/data/turismo.json`);
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(data)),
    ).toHex();
    assert.equal(records[0].name, `${digest}.json`);
  });

  await t.step(
    "a build with an invalid data set fails, saying why",
    async () => {
      const bad = `${tree.dir}/bad.json`;
      await Deno.writeTextFile(bad, JSON.stringify({ meta: {} }));
      const { code, output } = await new Deno.Command(Deno.execPath(), {
        args: ["task", "build"],
        cwd: tree.dir,
        env: serviceEnv({ TOURISM_DATA: bad }),
        clearEnv: true,
        stdin: "null",
      }).output().then(({ code, stdout, stderr }) => ({
        code,
        output: new TextDecoder().decode(stdout) +
          new TextDecoder().decode(stderr),
      }));
      assert.equal(code, 1, output);
      assert.match(output, /bad\.json is invalid: meta\.demo: /);
      await Deno.remove(bad);
    },
  );
  const service = await startDeployed(tree, { AUTH_JWT_SECRET: SECRET });
  await waitUntilHealthy(service);
  const { url } = service;

  await t.step("pages render with the built styles and islands", async () => {
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
    const home = await fetch(`${url}/`);
    assert.equal(home.status, 200);
    assert.match(typeOf(home), /text\/html/);
    const html = await home.text();
    const assets = [
      [manifest.styles, /text\/css/],
      [manifest.client, /javascript/],
    ];
    for (const [path, type] of assets) {
      assert.ok(html.includes(path), `/ links ${path}`);
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(typeOf(res), type);
      await res.body?.cancel();
    }
    const page = await fetch(`${url}/turismo/atractivos/plaza-principal`);
    assert.equal(page.status, 200);
    assert.match(typeOf(page), /text\/html/);
    await page.body?.cancel();
  });

  await t.step("a ticket gets its page and a 1200×630 share card", async () => {
    const ticket = ticketBody();
    const { shareCode } = ticket;
    const res = await postJsonTo(`${url}/api/turismo/ticket`, ticket);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(
      body.ticketUrl.endsWith(`/ruta/${shareCode}`),
      body.ticketUrl,
    );
    const route = await fetch(`${url}/ruta/${shareCode}`);
    assert.equal(route.status, 200);
    await route.body?.cancel();
    const card = await fetch(`${url}/api/turismo/og/${shareCode}`);
    assert.equal(card.status, 200);
    assert.equal(typeOf(card), "image/png");
    const png = new Uint8Array(await card.arrayBuffer());
    assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE);
    const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
    assert.deepEqual([ihdr.getUint32(0), ihdr.getUint32(4)], [1200, 630]);
  });

  await t.step("a visit verifies once with an HS256 token", async () => {
    const userId = randomUserId();
    const token = await new jose.SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(SECRET));
    const auth = { authorization: `Bearer ${token}` };
    const body = { code: "plz4ka", userId }; // plaza-principal's guide code
    const verify = () =>
      postJsonTo(`${url}/api/turismo/verify-visit`, body, auth);
    const first = await verify();
    const answer = await first.json();
    assert.equal(first.status, 200, JSON.stringify(answer));
    const { visitId, ...rest } = answer;
    assert.deepEqual(rest, {
      success: true,
      atractivo: "plaza-principal",
      badge: null,
    });
    assert.equal(typeof visitId, "string");
    const again = await verify();
    assert.equal(again.status, 409);
    await again.body?.cancel();
  });

  await t.step("the log shows no error and no permission failure", () => {
    assert.doesNotMatch(
      service.output(),
      /Unhandled error|No page bundle|PermissionDenied|Requires \w+ access|Deno requests/,
    );
  });
});

Deno.test("on Deno Deploy without the build step", { ignore }, async () => {
  await using tree = await archiveTree();
  const service = await startDeployed(tree);
  let timer: number | undefined;
  const status = await Promise.race([
    service.process.status,
    new Promise<undefined>((resolve) => timer = setTimeout(resolve, 30_000)),
  ]);
  clearTimeout(timer);
  // The output streams may still hold the last lines after the exit.
  for (let i = 0; i < 20 && !service.output().includes("\n"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const output = service.output();
  assert.equal(status?.code, 1, `exits with 1 within 30 s:\n${output}`);
  const lines = output.split("\n").filter((line) =>
    line.includes("static/build/") && line.includes("deno task build")
  );
  assert.equal(lines.length, 1, output);
  assert.doesNotMatch(output, /^ {4}at /m, "no stack trace");
});
