package io.seekwell.client;

import io.seekwell.common.object.RequestOptions;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How one kind of request (a GET, a HEAD) is sent and answered, for a {@link Call}.
 *
 * @param send sends an attempt with the options given
 * @param discard frees an answer that is not the call's
 */
record Exchange<T>(Function<RequestOptions, CompletableFuture<T>> send, Consumer<T> discard) {}
