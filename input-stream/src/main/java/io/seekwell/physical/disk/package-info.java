/**
 * Internal: the disk tier, the cache tier below memory that keeps 64 KiB granules of immutable
 * objects in a local directory across streams, factories and restarts. A factory's {@link DiskTier}
 * reads and writes its scope's cache in one slot of the directory ({@link DiskCaches}); {@link
 * SharedSlotsTier} reads the other slots, read only. The block store in {@code
 * io.seekwell.physical} reaches both through its {@link io.seekwell.physical.Tier} interface. Not
 * exported by the module (see {@code module-info.java}); not public API, and it may change in any
 * release.
 */
package io.seekwell.physical.disk;
