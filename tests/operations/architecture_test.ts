/**
 * The layering the README describes, checked on the real module graph
 * (`deno info --json`): arrows point down (main → app → routes → lib), no
 * two modules and no two folders import each other (the table of layers,
 * {@linkcode LAYERS}, says which folder imports which), and browser code
 * stands apart.
 */
import assert from "node:assert/strict";
import { ROOT } from "../service_process.ts";

interface GraphModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    code?: { specifier: string };
    type?: { specifier: string };
  }[];
}

const ROOT_URL = new URL(`file://${ROOT}`).href;

/** The project's own modules reachable from `entries`, each with the project modules it imports. */
async function getGraph(entries: string[]): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const entry of entries) {
    const { stdout, success } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stderr: "inherit",
    }).output();
    assert.ok(success, `deno info ${entry}`);
    const { modules } = JSON.parse(new TextDecoder().decode(stdout)) as {
      modules: GraphModule[];
    };
    for (const module of modules) {
      if (!module.specifier.startsWith(ROOT_URL)) continue;
      const path = module.specifier.slice(ROOT_URL.length);
      const imports = (module.dependencies ?? [])
        .flatMap((dep) => [dep.code?.specifier, dep.type?.specifier])
        .filter((s): s is string => s?.startsWith(ROOT_URL) ?? false)
        .map((s) => s.slice(ROOT_URL.length));
      graph.set(path, [...new Set(imports)]);
    }
  }
  return graph;
}

/** Every cycle's modules (strongly connected components of more than one module, or a self-import). */
function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) {
        cycles.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return cycles;
}

/**
 * The layers, top to bottom, one line each (`#`), and under each the rows
 * of its folders: a folder, then every folder it imports. A folder of lib/
 * is written without `lib/` (`db`), a top-level folder with its slash
 * (`routes/`), a module at the root by its name (`deps.ts`); `*` is any
 * folder of lib/. A row names only rows below it, so every arrow points
 * down. The table is checked both ways: an import it does not list fails,
 * and so does a listed folder that nothing imports any more.
 *
 * To extend it: a new import across folders goes into the importer's row
 * when the imported folder's row is below; when it is above (the arrow
 * would point up), move the piece both need down instead, as the domain
 * errors went to `errors` and the shared types to `types`. A new folder
 * gets a row just below the lowest row that imports it.
 */
const LAYERS = `
# The service: main.ts starts it, app.ts mounts each capability once, routes/ answer.
main.ts          app.ts deps.ts config server
app.ts           routes/ deps.ts chat http i18n limits oauth staff
routes/          islands/ components/ client/ deps.ts *
# The tasks: each script (deno task posters, backup, ...) over the capabilities.
scripts/         auth backup config content data db icons og pages passport posters staff types
# Pages: islands (also run in the browser) over server-rendered components, client/ browser-only.
islands/         components/ client/ check_in/names.ts
components/      client/ prizes/counter_code.ts *
client/          check_in/names.ts
# Wiring: deps.ts opens what the app is built from (KV, the data set, the clients).
deps.ts          *
# Capabilities: what the portal does, a folder each; one may use those below it.
personal_data    check_in config data db errors i18n limits og pages passport tickets types
backup           db
limits           chat config db errors http
server           config data db pages
chat             calendar data db errors events format geo hours http i18n services
oauth            auth config data db http text types
icons            og pages
og               branding cache crypto data db errors format i18n passport text tickets
pages            cache calendar config data db events http photos
staff            calendar check_in config data db errors figures format http i18n open_data pdf rewards text types
cms              config db errors types
open_data        calendar config data db
passport         check_in data db errors text types
check_in         check_in/names.ts badges crypto data db errors geo types
posters          branding data i18n pdf
rewards          badges calendar data db format i18n pdf prizes
services         calendar data geo
tickets          crypto data db errors i18n text types
branding         data
events           calendar data format i18n
format           data i18n
geo              data i18n
pdf
figures          badges calendar db
photos           data db errors types
content          crypto data db i18n types
# HTTP plumbing: Hono middleware, the API's contract and the bearer token's user.
http             auth config errors i18n types
auth             errors types
# Storage: db owns every KV key and transaction.
db               badges calendar check_in/names.ts config crypto errors prizes prizes/counter_code.ts types
# Foundations: the config, the data set, words, named errors, shared types, rule tables.
config           data text types
data             calendar check_in/names.ts crypto hours i18n
hours            calendar i18n
errors           i18n
prizes           badges prizes/counter_code.ts
badges           i18n
cache
calendar
crypto
text
types
i18n
# Leaves the browser shares: modules that import nothing, each its own row.
check_in/names.ts
prizes/counter_code.ts
`;

/**
 * Modules of lib/ that the browser imports (client/, islands/): each imports
 * nothing, and is a row of {@linkcode LAYERS} of its own, below every
 * folder, so its capability's folder may import what its own leaf is
 * imported by (lib/data reads the check-in's method names).
 */
const BROWSER_LEAVES = [
  "lib/check_in/names.ts",
  "lib/prizes/counter_code.ts",
];

/** The folder of a module, as {@linkcode LAYERS} names it. */
function getFolder(path: string): string {
  if (BROWSER_LEAVES.includes(path)) return path.slice("lib/".length);
  const parts = path.split("/");
  if (parts.length === 1) return path; // main.ts, app.ts, deps.ts
  if (parts[0] !== "lib") return `${parts[0]}/`;
  return parts.length > 2 ? parts[1] : path; // a loose lib/x.ts: no row
}

/** The rows of {@linkcode LAYERS}, top to bottom: each folder and what it may import. */
function parseLayers(table: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of table.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [folder, ...imports] = line.trim().split(/\s+/);
    assert.ok(!rows.has(folder), `${folder} has one row`);
    rows.set(folder, imports);
  }
  return rows;
}

/** Each folder of the graph with the folders its modules import, and one import that shows each arrow. */
function getFolderGraph(
  graph: Map<string, string[]>,
): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [module, imports] of graph) {
    const from = getFolder(module);
    const arrows = folders.get(from) ?? new Map<string, string>();
    folders.set(from, arrows);
    for (const path of imports) {
      const to = getFolder(path);
      if (to !== from && !arrows.has(to)) arrows.set(to, `${module} → ${path}`);
    }
  }
  return folders;
}

/**
 * Folders of lib/ with no unit test beside their code, each with the
 * reason. Only a folder where nothing runs belongs here: its modules may
 * export types and constants, never a function or a class.
 */
const FOLDERS_WITHOUT_UNIT_TESTS: Readonly<Record<string, string>> = {
  types: "shared types and the list of staff roles: nothing to run",
};

/** Whether `dir` or a folder below it holds a `*_test.ts` (or `.tsx`). */
function hasUnitTest(dir: string): boolean {
  return [...Deno.readDirSync(dir)].some((entry) =>
    entry.isDirectory
      ? hasUnitTest(`${dir}/${entry.name}`)
      : /_test\.tsx?$/.test(entry.name)
  );
}

const islands = [...Deno.readDirSync(`${ROOT}islands`)]
  .filter((entry) => entry.name.endsWith(".tsx"))
  .map((entry) => `islands/${entry.name}`);
// The scripts are entries of their own (`deno task posters`, `backup`, ...):
// what they import is held to the same table as the service.
const scripts = [...Deno.readDirSync(`${ROOT}scripts`)]
  .filter((entry) => /^[a-z].*(?<!_test)\.ts$/.test(entry.name))
  .map((entry) => `scripts/${entry.name}`);
const graph = await getGraph(["main.ts", ...islands, ...scripts]);

Deno.test("architecture", async (t) => {
  await t.step("no import cycle between the project's modules", () => {
    assert.ok(graph.size > 50, `${graph.size} modules in the graph`);
    assert.deepEqual(findCycles(graph), []);
  });

  await t.step("lib/ never imports routes, pages, islands or the app", () => {
    for (const [module, imports] of graph) {
      if (!module.startsWith("lib/")) continue;
      const upward = imports.filter((path) =>
        /^(routes|components|islands|client)\//.test(path) ||
        ["app.ts", "deps.ts", "main.ts"].includes(path)
      );
      assert.deepEqual(upward, [], module);
    }
  });

  await t.step(
    "browser code in client/ imports only client/, the leaves it shares (and npm packages)",
    () => {
      for (const [module, imports] of graph) {
        if (!module.startsWith("client/")) continue;
        const server = imports.filter((path) =>
          !path.startsWith("client/") && !BROWSER_LEAVES.includes(path)
        );
        assert.deepEqual(server, [], module);
      }
    },
  );

  await t.step(
    "a leaf the browser shares imports nothing of the project",
    () => {
      for (const leaf of BROWSER_LEAVES) {
        assert.ok(graph.has(leaf), `${leaf} is in the graph`);
        assert.deepEqual(graph.get(leaf), [], leaf);
      }
    },
  );

  const folders = getFolderGraph(graph);
  const rows = parseLayers(LAYERS);
  const isLib = (folder: string) => !/[/.]/.test(folder);

  await t.step("no import cycle between folders, of any length", () => {
    const cycles = findCycles(
      new Map([...folders].map(([from, to]) => [from, [...to.keys()]])),
    );
    // Each cycle with the imports that close it, for the message.
    const shown = cycles.map((cycle) =>
      cycle.flatMap((from) =>
        [...folders.get(from)!].filter(([to]) => cycle.includes(to))
          .map(([, example]) => example)
      )
    );
    assert.deepEqual(shown, [], "folders that import each other");
  });

  await t.step("the layers: every row names only rows below it", () => {
    const order = [...rows.keys()];
    const upward = [...rows].flatMap(([from, imports]) =>
      imports.filter((to) => to !== "*")
        .filter((to) => !(order.indexOf(to) > order.indexOf(from)))
        .map((to) => `${from} → ${to}`)
    ).concat(
      [...rows].filter(([from, imports]) =>
        imports.includes("*") &&
        order.some((row, i) => isLib(row) && i <= order.indexOf(from))
      ).map(([from]) => `${from} → * (a lib/ row above it)`),
    );
    assert.deepEqual(upward, []);
  });

  await t.step("the layers: one row for each folder, and no other", () => {
    assert.deepEqual(
      [...folders.keys()].filter((folder) => !rows.has(folder)).sort(),
      [],
      "folders without a row in LAYERS: add one",
    );
    assert.deepEqual(
      [...rows.keys()].filter((folder) => !folders.has(folder)).sort(),
      [],
      "rows of LAYERS no module is in: remove them",
    );
  });

  await t.step("the layers: every import across folders is in its row", () => {
    const unlisted = [...folders].flatMap(([from, arrows]) =>
      [...arrows].filter(([to]) => {
        const allowed = rows.get(from) ?? [];
        return !allowed.includes(to) && !(isLib(to) && allowed.includes("*"));
      }).map(([, example]) => example)
    );
    assert.deepEqual(
      unlisted,
      [],
      "imports LAYERS does not list: see its comment to extend it",
    );
  });

  await t.step("the layers: every folder a row names is imported", () => {
    const unused = [...rows].flatMap(([from, imports]) =>
      imports.filter((to) =>
        to === "*"
          ? ![...folders.get(from)?.keys() ?? []].some(isLib)
          : !folders.get(from)?.has(to)
      ).map((to) => `${from} → ${to}`)
    );
    assert.deepEqual(unused, [], "rows that name a folder no import needs");
  });

  await t.step(
    "routes, components and islands enter a lib/ folder through its mod.ts",
    () => {
      // The API's routes build their contract with @hono/zod-openapi, which
      // the http entry leaves out so that pages never load it; the tickets'
      // schemas stay out of their entry for the same reason. app.ts,
      // main.ts and deps.ts are the start path: they import only what a
      // first request needs, file by file.
      const contract = [
        "lib/http/router.ts",
        "lib/http/openapi.ts",
        "lib/tickets/schemas.ts",
      ];
      const inside = [...graph].flatMap(([module, imports]) =>
        /^(routes|components|islands)\//.test(module)
          ? imports.filter((path) =>
            /^lib\/[^/]+\//.test(path) && !path.endsWith("/mod.ts") &&
            !contract.includes(path) && !BROWSER_LEAVES.includes(path)
          ).map((path) => `${module} → ${path}`)
          : []
      );
      assert.deepEqual(inside, [], "import the folder's mod.ts instead");
    },
  );

  await t.step(
    "no folder of routes/ imports another (shared pieces: routes/_shared/)",
    () => {
      // A route folder is `routes/<name>/`; what two of them need lives in
      // routes/_shared/ (or components/), so no two pages' folders knot
      // together. Modules at the root of routes/ (the page shell) are not
      // folders.
      const routeFolder = (path: string) =>
        /^routes\/([^/]+)\//.exec(path)?.[1];
      const across = [...graph].flatMap(([module, imports]) => {
        const from = routeFolder(module);
        if (!from || from.startsWith("_")) return [];
        return imports.filter((path) => {
          const to = routeFolder(path);
          return to !== undefined && to !== from && !to.startsWith("_");
        }).map((path) => `${module} → ${path}`);
      });
      assert.deepEqual(across, [], "move what both need to routes/_shared/");
    },
  );

  await t.step("no module imports its own folder's mod.ts", () => {
    const own = [...graph].flatMap(([module, imports]) =>
      imports.filter((path) =>
        path.endsWith("/mod.ts") && path !== module &&
        getFolder(path) === getFolder(module) && path.startsWith("lib/")
      ).map((path) => `${module} → ${path}`)
    );
    assert.deepEqual(own, []);
  });

  await t.step(
    "every folder of lib/ with behaviour has a unit test beside its code",
    () => {
      const libFolders = [...Deno.readDirSync(`${ROOT}lib`)]
        .filter((entry) => entry.isDirectory).map((entry) => entry.name)
        .sort();
      assert.deepEqual(
        libFolders.filter((folder) =>
          !(folder in FOLDERS_WITHOUT_UNIT_TESTS) &&
          !hasUnitTest(`${ROOT}lib/${folder}`)
        ),
        [],
        "folders without a unit test: add a <module>_test.ts beside the code (or, where nothing runs, an entry with its reason in FOLDERS_WITHOUT_UNIT_TESTS)",
      );
      const exempt = Object.keys(FOLDERS_WITHOUT_UNIT_TESTS);
      assert.deepEqual(
        exempt.filter((folder) =>
          !libFolders.includes(folder) || hasUnitTest(`${ROOT}lib/${folder}`)
        ),
        [],
        "entries of FOLDERS_WITHOUT_UNIT_TESTS that are gone or tested now: remove them",
      );
      const running = exempt.filter((folder) => libFolders.includes(folder))
        .flatMap((folder) =>
          [...Deno.readDirSync(`${ROOT}lib/${folder}`)]
            .filter((entry) => entry.isFile && /\.tsx?$/.test(entry.name))
            .filter((entry) =>
              /^export (default )?(async )?(function|class)\b/m.test(
                Deno.readTextFileSync(`${ROOT}lib/${folder}/${entry.name}`),
              )
            ).map((entry) => `lib/${folder}/${entry.name}`)
        );
      assert.deepEqual(
        running,
        [],
        "modules of an exempt folder that export code: test them",
      );
    },
  );

  await t.step("no loose module at the root of lib/", () => {
    const loose = [...Deno.readDirSync(`${ROOT}lib`)]
      .filter((entry) => entry.isFile)
      .map((entry) => entry.name);
    assert.deepEqual(loose, []);
  });
});
