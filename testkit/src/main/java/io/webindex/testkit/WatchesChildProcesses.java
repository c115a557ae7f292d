package io.webindex.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an {@link AccumuloITBase} class that reads {@link AccumuloITBase#childProcesses()}: a
 * {@link ChildProcessWatcher} records this JVM's child processes while the class runs, from before
 * its own cluster starts (or, on a {@link SharedCluster}, from the class's start).
 *
 * <p>Only the classes that look at command lines and environments carry it: the watcher walks the
 * machine's whole process table four times a second, about 1.4 % of a core per test JVM while a
 * full suite runs (hundreds of processes), which every other class would pay for nothing.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WatchesChildProcesses {}
