/** A worker that cannot start, as where a platform forbids what it loads. */
throw new Error("this worker cannot start");
