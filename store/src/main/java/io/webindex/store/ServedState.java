package io.webindex.store;

import io.webindex.core.config.WebindexConfig;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * What is served, read once: the table users see and the run it came from (the served pointer of
 * {@code <prefix>_meta}, with its version for a guarded switch), the Fluo application that
 * maintains it, the cut-over in progress, and, when the reader can ask Fluo, the batch that
 * application has applied. Every part of webindex that needs one of these (the command line, the
 * Tools, the web application, the loader, the Fluo services) reads them here instead of reading the
 * pointer on its own; a value of this class is one moment's answer, read again for a newer one.
 */
public final class ServedState {
  private final RunRegistry.ServedVersion pointer;
  private final Optional<RunRegistry.CutoverTarget> cutover;
  private final String configuredApp;
  private final OptionalLong applied;

  private ServedState(
      RunRegistry.ServedVersion pointer,
      Optional<RunRegistry.CutoverTarget> cutover,
      String configuredApp,
      OptionalLong applied) {
    this.pointer = pointer;
    this.cutover = cutover;
    this.configuredApp = configuredApp;
    this.applied = applied;
  }

  /** The served state recorded in {@code runs}' meta table, for configuration {@code cfg}. */
  public static ServedState read(RunRegistry runs, WebindexConfig cfg) {
    return new ServedState(
        runs.servedVersion(), runs.cutoverTarget(), cfg.fluoApp(), OptionalLong.empty());
  }

  /**
   * This state with the batch its application has applied, as {@code appliedOf} (which asks Fluo:
   * {@code io.webindex.fluo.WebindexApp}) reports it for the application's name.
   */
  public ServedState withApplied(ToLongFunction<String> appliedOf) {
    return new ServedState(
        pointer, cutover, configuredApp, OptionalLong.of(appliedOf.applyAsLong(app())));
  }

  /** The served pointer, if a table was ever served. */
  public Optional<RunRegistry.Served> served() {
    return pointer.served();
  }

  /** The served table, if any. */
  public Optional<String> table() {
    return served().map(RunRegistry.Served::table);
  }

  /** The pointer with its version, as a cut-over compares it at its switch. */
  public RunRegistry.ServedVersion version() {
    return pointer;
  }

  /**
   * The Fluo application that maintains the served table: the one the served pointer names (after a
   * cut-over), else the configured one ({@code webindex.fluo.app}).
   */
  public String app() {
    return namesApp() ? served().get().fluoApp() : configuredApp;
  }

  /** Whether the served pointer names the application that maintains the table. */
  public boolean namesApp() {
    return served().map(s -> !s.fluoApp().isEmpty()).orElse(false);
  }

  /** The cut-over in progress, if one is recorded. */
  public Optional<RunRegistry.CutoverTarget> cutover() {
    return cutover;
  }

  /** The batch {@link #app()} has applied, when read {@link #withApplied with Fluo}. */
  public OptionalLong applied() {
    return applied;
  }

  /**
   * The served pointer.
   *
   * @throws IllegalArgumentException with {@code hint}, when no table is served yet
   */
  public RunRegistry.Served requireServed(String hint) {
    return served().orElseThrow(() -> new IllegalArgumentException(hint));
  }
}
