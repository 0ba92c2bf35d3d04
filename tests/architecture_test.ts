/**
 * The layering the README describes, checked on the real module graph
 * (`deno info --json`): arrows point down (main → app → routes → lib), no
 * two modules import each other, and browser code stands apart.
 */
import assert from "node:assert/strict";
import { ROOT } from "./service_process.ts";

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

const islands = [...Deno.readDirSync(`${ROOT}islands`)]
  .filter((entry) => entry.name.endsWith(".tsx"))
  .map((entry) => `islands/${entry.name}`);
const graph = await getGraph(["main.ts", ...islands]);

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
    "browser code in client/ imports only client/ (and npm packages)",
    () => {
      for (const [module, imports] of graph) {
        if (!module.startsWith("client/")) continue;
        const server = imports.filter((path) => !path.startsWith("client/"));
        assert.deepEqual(server, [], module);
      }
    },
  );

  await t.step("no loose module at the root of lib/", () => {
    const loose = [...Deno.readDirSync(`${ROOT}lib`)]
      .filter((entry) => entry.isFile)
      .map((entry) => entry.name);
    assert.deepEqual(loose, []);
  });
});
