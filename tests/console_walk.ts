/**
 * Every console page a staff cookie can reach, for tests that try a promise
 * on all of them: the route table's GET routes under `/panel` (`:slug` as
 * every attraction of the data set), then every console link those pages
 * hold (quick ranges, downloads), so a page added later is walked too.
 * PDFs and workbooks are read as their text.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { extractText, getDocumentProxy } from "unpdf";
import { LazyRoutes } from "@/lib/http/lazy_routes.ts";
import type { TestContext } from "./test_utils.ts";

/** The most pages one walk opens: the table's, then the links they hold. */
const MAX_PAGES = 600;

/** The text a person reads in an answer: a PDF's and a workbook's too. */
async function readAnswer(res: Response): Promise<string> {
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("application/pdf")) {
    const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    return (await extractText(pdf, { mergePages: true })).text;
  }
  if (type.includes("spreadsheetml")) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const cells: string[] = [];
    book.eachSheet((sheet) =>
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          cells.push(String(cell.text));
        })
      )
    );
    return cells.join("\n");
  }
  return await res.text();
}

/**
 * The console's GET paths from the route table: each parameter filled in,
 * `:slug` with every attraction's slug, any other with a made-up value
 * (the page answers its 404 or 403, which is walked too).
 */
async function listConsolePaths(ctx: TestContext): Promise<string[]> {
  const routes = await LazyRoutes.of(ctx.app)!.listRoutes();
  const slugs = ctx.deps.data.current().data.attractions.map((a) => a.slug);
  const paths = routes
    .filter((r) => r.method === "GET" && /^\/panel(\/|$)/.test(r.path))
    .flatMap((r) =>
      r.path.includes(":slug")
        ? slugs.map((slug) => r.path.replaceAll(":slug", slug))
        : [r.path]
    )
    .map((path) => path.replace(/:[A-Za-z]+/g, "x"));
  assert.ok(paths.includes("/panel/exportar/libro.xlsx"), "the table's paths");
  return paths;
}

/** The console links (`href="/panel…"`) of an HTML page. */
function listConsoleLinks(html: string): string[] {
  return [...html.matchAll(/href="(\/panel[^"#]*)/g)].map((m) =>
    m[1].replaceAll("&amp;", "&")
  );
}

/**
 * Opens every console page `cookie` can reach, from the route table and
 * then the links on the pages; returns each path with its status and text.
 */
export async function walkConsole(
  ctx: TestContext,
  cookie: string,
): Promise<Map<string, { status: number; text: string }>> {
  const seen = new Map<string, { status: number; text: string }>();
  const queue = await listConsolePaths(ctx);
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    assert.ok(seen.size < MAX_PAGES, `more than ${MAX_PAGES} pages`);
    const res = await ctx.app.request(path, { headers: { cookie } });
    const text = await readAnswer(res);
    assert.ok(res.status < 500, `${path} answered ${res.status}`);
    seen.set(path, { status: res.status, text });
    if (res.headers.get("content-type")?.startsWith("text/html")) {
      queue.push(...listConsoleLinks(text));
    }
  }
  return seen;
}

export function findIn(
  pages: Map<string, { text: string }>,
  needle: string,
): string[] {
  return [...pages].filter(([, page]) => page.text.includes(needle))
    .map(([path]) => path);
}
