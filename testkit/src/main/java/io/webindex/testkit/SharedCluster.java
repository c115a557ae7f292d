package io.webindex.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an {@link AccumuloITBase} class whose tests may run on a MiniAccumulo that other marked
 * classes used before it. In a build (failsafe sets {@code webindex.it.clusterPool}) the class
 * leases a cluster of the build's {@link ClusterPool}: the one its JVM held for the marked class
 * before it, or one another test JVM of any module gave up (its users but root dropped, its tables
 * dropped in the background), or a new one when every cluster is leased; a cluster stops when no
 * JVM leased it for a while or when the build ends. Without the pool (a class run from an IDE), the
 * first marked class of the JVM starts a cluster, the next ones take it over, and it stops when the
 * JVM ends. Either way an unmarked class gets a cluster of its own (and gives its JVM's lease up).
 *
 * <p>Only for classes that need nothing of the cluster but its tables and users: each test works in
 * tables, Fluo applications and directories named after {@link AccumuloITBase#newTableName(String)}
 * (unique across the JVMs of a build), creates its users itself, connects through {@link
 * AccumuloITBase#connector()} or {@link AccumuloITBase#connectorAs} (a cluster of the pool is
 * another process's: {@link AccumuloITBase#cluster()} refuses), and changes no instance-wide
 * setting. A class that inspects the cluster's own processes, logs or whole ZooKeeper tree for
 * something of its own (a password set at the cluster's start, say) keeps a cluster of its own.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SharedCluster {}
