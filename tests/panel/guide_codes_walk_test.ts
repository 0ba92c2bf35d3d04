/**
 * Where a guide code is shown, tried on every console page: a viewer finds
 * none anywhere, and an admin finds them only on the pages docs/SECURITY.md
 * names (read from its row, so the docs and the console cannot drift
 * apart). The codes are the data set's 17 and one replacement (the new
 * code and the old one in its grace period). The app runs in process on
 * `:memory:` KV.
 */
import assert from "node:assert/strict";
import { replaceGuideCode } from "@/lib/passport/guide_codes.ts";
import { walkConsole } from "../console_walk.ts";
import { createTestContext, SHIPPED, signInStaff } from "../test_utils.ts";

const SECURITY = new URL("../../docs/SECURITY.md", import.meta.url);

/** The console paths SECURITY.md says show codes, as patterns (`<slug>`: any). */
async function readDocumentedPaths(): Promise<RegExp[]> {
  const row = (await Deno.readTextFile(SECURITY)).split("\n").find((line) =>
    line.startsWith("| Guide codes never reach the chat prompt")
  );
  assert.ok(row, "SECURITY.md's row on where guide codes are shown");
  const paths = [...row.matchAll(/`(\/panel[^`]*)`/g)].map((m) => m[1]);
  assert.ok(paths.length >= 2, row);
  return paths.map((path) =>
    new RegExp(
      `^${
        path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<slug>/g, "[^/]+")
      }(/|$|\\?)`,
    )
  );
}

Deno.test("guide codes on every console page", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "luis@municipio.gob.mx",
    role: "viewer",
  });
  const plaza = SHIPPED.attractions[0];
  const replaced = await replaceGuideCode(ctx.deps, {
    slug: plaza.slug,
    graceDays: 7,
    staff: {
      id: "ana@municipio.gob.mx",
      email: "ana@municipio.gob.mx",
      role: "admin",
    },
  });
  const codes = [...SHIPPED.attractions.map((a) => a.guideCode), replaced.code];
  /** The pages of a walk that show any of the codes, in either case. */
  const findCodes = (pages: Map<string, { text: string }>) =>
    [...pages].filter(([, page]) =>
      codes.some((code) =>
        page.text.includes(code) || page.text.includes(code.toLowerCase())
      )
    ).map(([path]) => path);

  await t.step("a viewer finds no guide code on any console page", async () => {
    const pages = await walkConsole(ctx, viewer);
    assert.ok(pages.size > 50, `${pages.size} pages walked`);
    assert.deepEqual(findCodes(pages), []);
  });

  await t.step(
    "an admin finds them only where SECURITY.md says",
    async () => {
      const documented = await readDocumentedPaths();
      const pages = await walkConsole(ctx, admin);
      const shown = findCodes(pages);
      // The control: the codes page and the posters do show them.
      assert.ok(shown.includes("/panel/codigos"), shown.join(", "));
      assert.ok(shown.includes("/panel/carteles.pdf"), shown.join(", "));
      const undocumented = shown.filter((path) =>
        !documented.some((pattern) => pattern.test(path))
      );
      assert.deepEqual(undocumented, []);
    },
  );
});
