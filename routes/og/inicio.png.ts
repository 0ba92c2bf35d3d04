import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { servePageCard } from "./_page_card.ts";

/** `/og/inicio.png`: the home page's 1200x630 share card (`og:image` of `/`). */
export default function homeCard(deps: AppDeps) {
  return new Hono().get("/", (c) => servePageCard(c, deps, { kind: "home" }));
}
