console.log("0.0.0"); // The start-up floor: a one-line Deno script (bench/startup_bench.ts).
