package io.seekwell;

import java.util.Objects;

/**
 * An object a caller is going to read, announced ahead with {@link
 * S3SeekableInputStreamFactory#announce}: where it is and how its stream will be opened. The
 * information must give the object's length ({@link OpenStreamInformation#objectLength()} or its
 * metadata), as engines know it from their table's metadata, so that announcing sends no HEAD.
 *
 * @param uri the object
 * @param information how the stream will be opened: its length, and the request options (SSE-C key,
 *     audit) its GETs must carry
 */
public record AnnouncedObject(S3URI uri, OpenStreamInformation information) {

  /**
   * @throws IllegalArgumentException if {@code information} gives no length
   */
  public AnnouncedObject {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(information, "information");
    if (information.objectMetadata().isEmpty() && information.objectLength().isEmpty()) {
      throw new IllegalArgumentException(
          "An announced object needs its length (objectLength or objectMetadata): " + uri);
    }
  }

  /** An object of {@code length} bytes opened with the default information. */
  public static AnnouncedObject of(S3URI uri, long length) {
    return new AnnouncedObject(uri, OpenStreamInformation.builder().objectLength(length).build());
  }

  /** The object's length in bytes. */
  long length() {
    return information.objectMetadata().isPresent()
        ? information.objectMetadata().get().length()
        : information.objectLength().getAsLong();
  }
}
