/**
 * The one way webindex builds a MiniAccumuloCluster ({@link io.webindex.embedded.MiniAccumulo}):
 * for {@code bin/webindex dev}, {@code demo} and {@code bench} (cli's {@code EmbeddedAccumulo}) and
 * for every {@code *IT} (testkit's {@code AccumuloITBase}).
 */
package io.webindex.embedded;
