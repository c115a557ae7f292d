package io.webindex.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an {@link AccumuloITBase} class whose tests may run on a MiniAccumulo that other classes
 * marked so used before it in the same JVM (a failsafe fork): the first such class starts it, the
 * next ones take it over as it is, and it stops when the JVM ends or when a class without the mark
 * starts (which gets a cluster of its own, as before).
 *
 * <p>Only for classes that need nothing of the cluster but its tables and users: each test works in
 * tables, Fluo applications and directories named after {@link AccumuloITBase#newTableName(String)}
 * (unique in the JVM), creates no user another marked class creates, and changes no instance-wide
 * setting. A class that inspects the cluster's own processes, logs or whole ZooKeeper tree for
 * something of its own (a password set at the cluster's start, say) keeps a cluster of its own.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SharedCluster {}
