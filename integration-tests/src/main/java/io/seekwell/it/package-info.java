/**
 * End-to-end tests of the whole stack against a real MinIO server, through the connectors; the
 * tests live under {@code src/test}.
 */
package io.seekwell.it;
