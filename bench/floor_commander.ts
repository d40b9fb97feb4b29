import "@commander-js/extra-typings"; // The floor plus loading commander (bench/startup_bench.ts).
console.log("0.0.0");
