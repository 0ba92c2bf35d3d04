/**
 * What is measured, one row each, in the tables' order: how to measure the
 * service once, how to measure its limit once (if it has one), and the
 * ratio aimed for.
 */
import type { ReadPaths } from "./capture.ts";
import { type Figure, runDirect, runWrk } from "./measure.ts";
import type { Service } from "./processes.ts";
import type { Bench } from "./setup.ts";

export interface Target {
  /** Row name in the tables. */
  name: string;
  /** What the limit is. */
  limitName: string;
  /** Measures the service once (a fresh data pool each call). */
  service: (service: Service, round: number) => Promise<Figure>;
  /** Measures the limit once; undefined: no limit run. */
  limit?: (round: number) => Promise<Figure>;
  /** Minimum service/limit ratio aimed for. */
  target?: number;
  /** A read: its p99 counts against the reads' latency target. */
  read?: boolean;
  /**
   * A guarded target: the run fails (exit 1) when its ratio is below
   * `target`, so a feature cannot quietly cost a read per request.
   */
  guard?: boolean;
}

/**
 * The guarded reads (`--only=reads` measures these alone): served from
 * memory, each against a bare `Deno.serve` sending the same bytes.
 */
export { READ_PHASES as GUARDED_READS } from "./config.ts";

/** Every target, in the tables' order. */
export function buildTargets(bench: Bench): Target[] {
  return [
    ...floorTargets(bench),
    ...writeTargets(bench),
    ...cardTargets(bench),
    chatTarget(bench),
    ...pageTargets(bench),
  ];
}

/** A wrk run with the next salt and the run's duration. */
function wrk(
  bench: Bench,
  url: string,
  script: string,
  args: string[] = [],
  c = bench.options.connections,
): Promise<Figure> {
  return runWrk({
    url,
    script,
    args: [String(bench.nextSalt() % 256), ...args],
    connections: c,
    duration: bench.options.duration,
  });
}

/** A read: GET of the path on the service, and on the baseline server. */
function read(bench: Bench, key: keyof ReadPaths) {
  const path = bench.reads.paths[key];
  return {
    read: true,
    service: (s: Service) => wrk(bench, `${s.url}${path}`, "get.lua"),
    limit: () => wrk(bench, `${bench.baselineUrl}${path}`, "get.lua"),
  };
}

/** A limit: bench/direct.ts `op` on a fresh KV file. */
function direct(bench: Bench, op: string, concurrency: number) {
  return () =>
    runDirect(
      op,
      bench.files.freshKv(),
      bench.options.duration,
      concurrency,
      bench.modelUrl,
    );
}

/** `/healthz` and the logo: the framework's own cost. */
function floorTargets(bench: Bench): Target[] {
  return [
    {
      name: "healthz",
      limitName: "same bytes, plain Deno.serve",
      target: 0.8,
      guard: true,
      ...read(bench, "healthz"),
    },
    {
      name: "logo",
      limitName:
        "same bytes, plain Deno.serve (framework floor: no KV, no render)",
      ...read(bench, "logo"),
    },
  ];
}

/** verify-visit, rate-visit and ticket against their KV transactions. */
function writeTargets(bench: Bench): Target[] {
  const { writeConnections } = bench.options;
  const { files } = bench;
  return [
    {
      name: "verify",
      limitName:
        `bare Deno.serve, the same number of keys in one lean kv.atomic() on a KV file (${bench.leanShape}), ${writeConnections} in flight`,
      target: 0.6,
      guard: true,
      service: async (s) =>
        wrk(
          bench,
          `${s.url}/api/turismo/verify-visit`,
          "verify.lua",
          [await files.verifyUsersFile(s.fixtures.secret), files.codesFile],
          writeConnections,
        ),
      limit: async () =>
        wrk(
          bench,
          `${bench.leanUrl}/api/turismo/verify-visit`,
          "verify.lua",
          [
            await files.verifyUsersFile(bench.service.fixtures.secret),
            files.codesFile,
          ],
          writeConnections,
        ),
    },
    {
      name: "rate",
      limitName: `rateVisit on a KV file, ${writeConnections} in flight`,
      service: (s) =>
        wrk(
          bench,
          `${s.url}/api/turismo/rate-visit`,
          "rate.lua",
          [files.rateUsersFile(s), files.slugsFile],
          writeConnections,
        ),
      limit: direct(bench, "rate", writeConnections),
    },
    {
      name: "ticket",
      limitName: `createTicket (KV CMS), ${writeConnections} in flight`,
      service: (s) =>
        wrk(
          bench,
          `${s.url}/api/turismo/ticket`,
          "ticket.lua",
          [`t${crypto.randomUUID().slice(0, 8)}`],
          writeConnections,
        ),
      limit: direct(bench, "ticket", writeConnections),
    },
  ];
}

/**
 * Share cards: rendered for the request (tickets saved straight into KV, so
 * none has a stored card), and stored ones, by the linked URL and without
 * `?v=`.
 */
function cardTargets(bench: Bench): Target[] {
  return [
    {
      name: "og-cold",
      limitName:
        "(none: every card rendered for its request: tickets saved straight into KV, no card stored)",
      service: async (s) =>
        wrk(
          bench,
          `${s.url}/api/turismo/og/x`,
          "og_cold.lua",
          [await bench.files.coldCodesFile()],
          4,
        ),
    },
    {
      name: "og-cached",
      limitName:
        "same PNG, plain Deno.serve (the card as pages link it, `?v=`)",
      target: 0.8,
      guard: true,
      ...read(bench, "og"),
    },
    {
      name: "og-plain",
      limitName: "same PNG, plain Deno.serve (the spec's URL, no `?v=`)",
      target: 0.8,
      guard: true,
      ...read(bench, "ogPlain"),
    },
  ];
}

/** The chat against the stand-in model, and its work without HTTP. */
function chatTarget(bench: Bench): Target {
  const { connections } = bench.options;
  return {
    name: "chat",
    limitName:
      `limiter + prompt + model call, no HTTP, ${connections} in flight`,
    service: (s) => wrk(bench, `${s.url}/api/chat`, "chat.lua"),
    limit: direct(bench, "chat", connections),
  };
}

/** The route and attraction pages. */
function pageTargets(bench: Bench): Target[] {
  return [
    {
      name: "ruta",
      limitName: "same HTML, plain Deno.serve",
      target: 0.8,
      guard: true,
      ...read(bench, "ruta"),
    },
    {
      name: "atractivo",
      limitName: "same HTML, plain Deno.serve",
      target: 0.8,
      guard: true,
      ...read(bench, "atractivo"),
    },
  ];
}
