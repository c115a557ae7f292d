/**
 * The synthetic web and the benchmarks: {@code gen} (a synthetic web as raw-store batches), {@code
 * bench} (the stages timed on an embedded instance, one class per stage, {@link
 * io.webindex.cli.bench.BenchRun} running them and {@link io.webindex.cli.bench.BenchTable}
 * printing the figures) and {@code bench-web} (a running web application over HTTP). Commands here
 * never depend on {@code io.webindex.cli.Main}: the bench runs other commands through the {@link
 * io.webindex.cli.Command.Dispatcher} it is given.
 */
package io.webindex.cli.bench;
