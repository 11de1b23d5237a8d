package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import java.util.List;

/**
 * Where one column's data of one row group lies in a Parquet file.
 *
 * @param path the column's path in the schema, e.g. {@code [address, city]}
 * @param rowGroup the row group's index
 * @param dictionaryPageOffset where its dictionary page starts, or -1 if it has none
 * @param dataPageOffset where its first data page starts
 * @param compressedSize the bytes of the whole chunk, dictionary included
 */
record ColumnChunk(
    List<String> path,
    int rowGroup,
    long dictionaryPageOffset,
    long dataPageOffset,
    long compressedSize) {

  /** The chunk's bytes: from its dictionary page (if any) to the end of its data. */
  public ByteRange range() {
    long start = dictionaryPageOffset >= 0 ? dictionaryPageOffset : dataPageOffset;
    return ByteRange.ofLength(start, compressedSize);
  }

  /** The path as one dotted name, e.g. {@code address.city}. */
  public String dottedPath() {
    return String.join(".", path);
  }
}
