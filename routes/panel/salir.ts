import type { AppDeps } from "@/deps.ts";
import {
  clearStaffCookie,
  readStaffCookie,
  signOutStaff,
} from "@/lib/staff/mod.ts";
import { createPanelRouter } from "./_page.tsx";

/**
 * `POST /panel/salir`: ends the staff session (audited) and forgets the
 * cookie. Behind the panel's guard and its cross-site check.
 */
export default function staffSignOut(deps: AppDeps) {
  return createPanelRouter(deps).post("/", async (c) => {
    await signOutStaff(deps, readStaffCookie(c, deps.config));
    clearStaffCookie(c, deps.config);
    c.header("Cache-Control", "no-store");
    return c.redirect("/", 303);
  });
}
