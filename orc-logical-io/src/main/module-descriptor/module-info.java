/**
 * Seekwell's ORC plug-in: it reads an ORC file's tail and stripe footers ahead of the reader. The
 * jar carries its own copy of ORC's metadata classes and of aircompressor, relocated under {@code
 * io.seekwell.shaded}, so this module reads no ORC module: this descriptor is added to the jar
 * after the relocation, as one compiled with the sources could only name ORC's own modules.
 */
module io.seekwell.orc {
  requires io.seekwell;
  requires com.github.benmanes.caffeine;
  // The relocated protobuf runtime and aircompressor use sun.misc.Unsafe.
  requires jdk.unsupported;

  exports io.seekwell.orc;

  provides io.seekwell.logical.FormatPlugin with
      io.seekwell.orc.OrcFormatPlugin;
}
