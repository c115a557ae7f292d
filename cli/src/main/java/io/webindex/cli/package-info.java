/** The {@code bin/webindex} commands and the embedded runtime. */
package io.webindex.cli;
