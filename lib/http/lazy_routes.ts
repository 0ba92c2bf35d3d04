/**
 * Route modules imported on the first request that reaches them. Deno
 * Deploy starts an instance when a request arrives, so a start that imports
 * every route (the staff console, the API's schemas, the open data, the
 * sign-in) makes the first visitor wait for all of it; with the route table
 * mounted through {@linkcode LazyRoutes}, a cold start imports what its
 * first request needs and the rest on the request that needs it.
 *
 * What a request gets does not change: a mount answers every request under
 * its path from one sub-app, built once from its modules exactly as
 * `app.route()` would mount them, with the app's own 404 handler and error
 * funnel (an error is answered where it is thrown, so middleware around a
 * handler sees the error's answer, as it does under `app.route()`).
 * Once built, a mount costs one more dispatch per request (about 0.5 µs).
 *
 * @module
 */
import type {
  Context,
  Env,
  ErrorHandler,
  Handler,
  Hono,
  MiddlewareHandler,
  NotFoundHandler,
} from "hono";

/** A route module: its default export builds its routes from the app's dependencies. */
// deno-lint-ignore no-explicit-any -- any Hono sub-app, as app.route() takes
export type RouteModule<D> = { default: (deps: D) => Hono<any, any, any> };

/** Imports a route module: `() => import("./routes/x.ts")`, a literal, so the module stays in the graph. */
export type RouteLoader<D> = () => Promise<RouteModule<D>>;

/** What a mount does before and around its modules' routes. */
export interface MountOptions<E extends Env> {
  /**
   * Middleware run before the modules' routes, given the mount's sub-app
   * (a guard that reads its routes, such as the allowed methods); created
   * when the mount is first asked for, so it may import what it needs.
   */
  use?: (
    group: Hono<E>,
  ) => MiddlewareHandler<E>[] | Promise<MiddlewareHandler<E>[]>;
  /**
   * Answers an error of this mount itself; `undefined` leaves it to the
   * app's error funnel.
   */
  onError?: (
    error: Error,
    c: Context<E>,
  ) => Response | undefined | Promise<Response | undefined>;
  /** Only the path itself, not the paths below it (the home page, `/`). */
  exact?: boolean;
}

/** A mount's modules once imported: each sub-app with the path it is mounted at. */
export interface MountedRoutes {
  path: string;
  // deno-lint-ignore no-explicit-any -- as RouteModule
  app: Hono<any, any, any>;
}

interface Mount<D, E extends Env> {
  prefix: string;
  modules: [path: string, load: RouteLoader<D>][];
  options: MountOptions<E>;
  built?: Promise<{ group: Hono<E>; mounted: MountedRoutes[] }>;
}

/** A route of the table: its method (`ALL` for middleware and mounts) and path pattern. */
export interface ListedRoute {
  method: string;
  path: string;
}

/** Each app's lazy mounts, for {@linkcode LazyRoutes.of}. */
// deno-lint-ignore no-explicit-any -- any app's, whatever its deps and env
const lazyRoutesByApp = new WeakMap<Hono<any>, LazyRoutes<any, any>>();

/** Mounts route modules on `app` that are imported when first asked for. */
export class LazyRoutes<D, E extends Env> {
  /**
   * The lazy mounts made on `app`, if any: how a tool that must see every
   * route (the property test of all routes) reaches the routes behind them.
   */
  static of<E extends Env>(
    app: Hono<E>,
  ): LazyRoutes<unknown, E> | undefined {
    return lazyRoutesByApp.get(app);
  }

  readonly #app: Hono<E>;
  readonly #deps: D;
  readonly #createGroup: () => Hono<E>;
  readonly #notFound: NotFoundHandler<E>;
  readonly #onError: ErrorHandler<E>;
  readonly #use: () => MiddlewareHandler<E>[];
  readonly #mounts: Mount<D, E>[] = [];
  /** The handlers that hand a mount's requests to its sub-app. */
  readonly #mountHandlers = new Set<Handler<E>>();

  /**
   * `createGroup` makes an empty sub-app of the app's kind (`new Hono()`);
   * `notFound` and `onError` are the app's own 404 handler and error
   * funnel, which each mount's sub-app uses too. `use` makes the middleware
   * each mount's sub-app runs first: the app's own middleware that puts a
   * variable on the context, since a sub-app's request has a context of its
   * own.
   */
  constructor(
    app: Hono<E>,
    deps: D,
    { createGroup, notFound, onError, use = () => [] }: {
      createGroup: () => Hono<E>;
      notFound: NotFoundHandler<E>;
      onError: ErrorHandler<E>;
      use?: () => MiddlewareHandler<E>[];
    },
  ) {
    this.#app = app;
    this.#deps = deps;
    this.#createGroup = createGroup;
    this.#notFound = notFound;
    this.#onError = onError;
    this.#use = use;
    lazyRoutesByApp.set(app, this);
  }

  /**
   * Mounts a module's routes at `prefix` (like `app.route(prefix, ...)`),
   * or several modules, each at its own path under `prefix`, in order: they
   * are imported together on the first request for `prefix` or a path
   * below it.
   */
  mount(
    prefix: string,
    modules: RouteLoader<D> | [path: string, load: RouteLoader<D>][],
    options: MountOptions<E> = {},
  ): void {
    const mount: Mount<D, E> = {
      prefix,
      modules: typeof modules === "function" ? [[prefix, modules]] : modules,
      options,
    };
    this.#mounts.push(mount);
    const handler: Handler<E> = async (c) => {
      const { group } = await this.#build(mount);
      return await group.fetch(c.req.raw, c.env);
    };
    this.#mountHandlers.add(handler);
    // `/x/*` takes `/x` itself too.
    this.#app.all(
      options.exact ? prefix : `${prefix === "/" ? "" : prefix}/*`,
      handler,
    );
  }

  /**
   * Imports every mount whose prefix `filter` accepts, and returns their
   * modules' sub-apps with their paths (for a document built from the
   * routes' own definitions, such as `/openapi.json`).
   */
  async loadAll(
    filter: (prefix: string) => boolean = () => true,
  ): Promise<MountedRoutes[]> {
    const built = await Promise.all(
      this.#mounts.filter((m) => filter(m.prefix)).map((m) => this.#build(m)),
    );
    return built.flatMap((b) => b.mounted);
  }

  /**
   * Every route of the app, the mounts' own in place of the mounts
   * (imported for it): each method and path pattern once, middleware
   * included as `ALL`.
   */
  async listRoutes(): Promise<ListedRoute[]> {
    const groups = await Promise.all(this.#mounts.map((m) => this.#build(m)));
    const routes = [
      ...this.#app.routes.filter((r) => !this.#mountHandlers.has(r.handler)),
      ...groups.flatMap(({ group }) => group.routes),
    ];
    const seen = new Map<string, ListedRoute>();
    for (const { method, path } of routes) {
      seen.set(`${method} ${path}`, { method, path });
    }
    return [...seen.values()];
  }

  #build(
    mount: Mount<D, E>,
  ): Promise<{ group: Hono<E>; mounted: MountedRoutes[] }> {
    mount.built ??= Promise.all(mount.modules.map(([, load]) => load()))
      .then(async (modules) => {
        const group = this.#createGroup();
        for (const middleware of this.#use()) group.use(middleware);
        for (const middleware of await mount.options.use?.(group) ?? []) {
          group.use(middleware);
        }
        const mounted = modules.map((module, i) => ({
          path: mount.modules[i][0],
          app: module.default(this.#deps),
        }));
        for (const { path, app } of mounted) group.route(path, app);
        group.notFound(this.#notFound);
        group.onError(this.#answerError(mount.options.onError));
        return { group, mounted };
      })
      .catch((error) => {
        // A module that failed to import is tried again by the next request.
        mount.built = undefined;
        throw error;
      });
    return mount.built;
  }

  /** A mount's error handler: its own answer, else the app's funnel's. */
  #answerError(answer: MountOptions<E>["onError"]): ErrorHandler<E> {
    if (!answer) return this.#onError;
    return async (error, c) =>
      await answer(error, c) ?? await this.#onError(error, c);
  }
}
