/**
 * `deno task staff-link` gives a link that opens the running service, or
 * says why it may not: run with another `PORT` than the service's, it
 * still prints the link and says that no portal answers there.
 */
import assert from "node:assert/strict";
import {
  getFreePort,
  ROOT,
  serviceEnv,
  startServiceOnKvFile,
} from "../service_process.ts";

async function runStaffLink(env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "-A",
      "scripts/staff_link.ts",
      "ana@municipio.gob.mx",
      "--role",
      "admin",
    ],
    cwd: ROOT,
    env: serviceEnv(env),
    clearEnv: true,
    stdin: "null",
  }).output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

Deno.test("deno task staff-link and the running service's port", async (t) => {
  await using running = await startServiceOnKvFile({
    prefix: "turismo-staff-link-",
  });
  const { env, service } = running;

  await t.step(
    "with the service's PORT: the link, and no warning",
    async () => {
      const run = await runStaffLink({ ...env, PORT: String(service.port) });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`${service.url}/auth/personal/`));
      assert.equal(run.stderr, "");
    },
  );

  await t.step(
    "with another PORT: the link, and why it may not open the service",
    async () => {
      const other = await getFreePort();
      const run = await runStaffLink({ ...env, PORT: String(other) });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /valid 15 minutes: http:\/\/127\.0\.0\.1:/);
      assert.match(
        run.stderr,
        new RegExp(`No portal answers at http://127\\.0\\.0\\.1:${other} now`),
      );
      assert.match(run.stderr, /the same PORT/);
    },
  );
});
