/**
 * The load harness's fixed configuration (paths, cores, pool sizes) and its
 * command-line options.
 */

export const ROOT = new URL("../..", import.meta.url).pathname.replace(
  /\/$/,
  "",
);
export const LUA_DIR = `${ROOT}/bench/lua`;
export const DATA_PATH = `${ROOT}/data/turismo.json`;
export const DOC_PATH = `${ROOT}/docs/PERFORMANCE.md`;
export const START_MARK = "<!-- bench:load:start -->";
export const END_MARK = "<!-- bench:load:end -->";
export const SERVER_CORE = "0";
export const CLIENT_CORE = "1";
/** The share code of the page and card measured warm. */
export const ROUTE_CODE = "bench-ruta";
export const COLD_CODES_PER_RUN = 400;
/** New tickets (each a card drawn) in the memory phase, and how many tourists at a time. */
export const MEMORY_CARDS = 500;
export const MEMORY_CARDS_IN_FLIGHT = 8;
export const VERIFY_USERS_PER_RUN = 2_000;
export const RATE_USERS = 60;

export interface Options {
  duration: number;
  rounds: number;
  connections: number;
  writeConnections: number;
  /** Rounds of fresh starts in the cold-start phase. */
  coldStarts: number;
  /** New tickets in the memory phase (`--memory-cards`, default {@linkcode MEMORY_CARDS}: the target's figure). */
  memoryCards: number;
  only?: Set<string>;
  /**
   * The default run (no `--only`, no `--all`): {@linkcode GUARD_PHASES}
   * alone, each target in one table, exit 1 under any.
   */
  guards: boolean;
  /** `--all`: every phase and row (needs wrk; about 15 minutes). */
  all: boolean;
  writeDoc: boolean;
}

/**
 * The share-card phases, what `--only=cards` stands for: cold starts (the
 * card written before the start, idle memory), `/healthz` while cards are
 * drawn, a new user's card on a busy machine, bursts of writes to one
 * route, the memory phase.
 */
export const CARD_PHASES = [
  "cold-start",
  "stall",
  "new-user-card",
  "burst",
  "memory",
];

/**
 * The guarded reads, what `--only=reads` stands for (bench/load/targets.ts
 * `GUARDED_READS`): `/healthz`, the card by both URLs, the route and the
 * attraction page.
 */
export const READ_PHASES = [
  "healthz",
  "og-cached",
  "og-plain",
  "ruta",
  "atractivo",
];

/**
 * What the default run measures (about 3.5 minutes): the guarded reads,
 * verify-visit against a lean transaction over HTTP, cold starts (first
 * `/healthz`, first page, idle RSS), `/healthz` while cards are drawn, and
 * the memory phase: every target of issue 40, each with its baseline.
 */
export const GUARD_PHASES = [
  ...READ_PHASES,
  "verify",
  "cold-start",
  "stall",
  "memory",
];

/**
 * The phases bench/load/get_client.ts can drive (GET reads and
 * verify-visit), so a machine without wrk runs them.
 */
export const CLIENT_PHASES = [...GUARD_PHASES, "logo"];

export function parseOptions(args: string[]): Options {
  const get = (name: string) =>
    args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const all = args.includes("--all");
  let only = get("only")?.split(",").flatMap((name) =>
    name === "cards" ? CARD_PHASES : name === "reads" ? READ_PHASES : [name]
  );
  const guards = !all && !only;
  if (guards) only = GUARD_PHASES;
  return {
    duration: Number(get("duration") ?? (guards ? 3 : 5)),
    rounds: Number(get("rounds") ?? 2),
    connections: Number(get("connections") ?? 32),
    writeConnections: Number(get("write-connections") ?? 16),
    coldStarts: Number(get("cold-starts") ?? (guards ? 4 : 10)),
    memoryCards: Number(get("memory-cards") ?? MEMORY_CARDS),
    only: only ? new Set(only) : undefined,
    guards,
    all,
    writeDoc: !args.includes("--no-doc"),
  };
}

/** Whether `--only` (when given) asks for the row `name`. */
export function wanted(options: Options, name: string): boolean {
  return !options.only || options.only.has(name);
}
