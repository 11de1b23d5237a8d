package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.object.RequestOptions;
import java.util.function.Consumer;

/**
 * What a stream's GETs carry and whom they tell.
 *
 * @param options SSE-C key, audit string
 * @param onGet told about each GET before it is sent
 * @param immutable whether the object is written once and never changed, so that its bytes may be
 *     kept in the disk tier
 */
public record FetchContext(RequestOptions options, Consumer<ByteRange> onGet, boolean immutable) {

  /** This context for GETs of bytes fetched ahead of any read. */
  FetchContext asPrefetch() {
    return new FetchContext(options.asPrefetch(), onGet, immutable);
  }
}
