/**
 * The store the benchmarks read from and the network in front of it: its endpoint and credentials,
 * the SDK clients every read path is built on with their requests counted ({@link
 * io.seekwell.bench.store.RequestCounter}), uploads, the emulated S3 network (Toxiproxy) and the
 * helpers the scripts run ({@link io.seekwell.bench.store.FreePort}, {@link
 * io.seekwell.bench.store.AwaitHttp}).
 */
package io.seekwell.bench.store;
