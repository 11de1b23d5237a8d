package io.seekwell.physical;

import io.seekwell.common.object.RequestOptions;

/** The fetch contexts of the physical layer's tests: no request options, no GET watched. */
public final class Contexts {

  /** For an object declared immutable: the disk tier may keep and serve it. */
  public static final FetchContext IMMUTABLE =
      new FetchContext(RequestOptions.none(), range -> {}, true);

  /** For an object that may change: it never touches the disk. */
  public static final FetchContext MUTABLE =
      new FetchContext(RequestOptions.none(), range -> {}, false);

  private Contexts() {}
}
