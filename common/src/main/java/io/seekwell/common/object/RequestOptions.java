package io.seekwell.common.object;

import java.util.Objects;
import java.util.Optional;

/**
 * What every request for an object carries besides its location: the SSE-C key, a user-agent suffix
 * and an audit string (sent as the {@code Referer} header, so it shows in S3 server access logs).
 * Immutable and thread-safe.
 *
 * @param customerKey the SSE-C key, if the object is encrypted with one
 * @param userAgentSuffix appended to the user agent, e.g. {@code trino/470}
 * @param auditInfo a free-form string that identifies the caller's job or query
 */
public record RequestOptions(
    Optional<CustomerKey> customerKey,
    Optional<String> userAgentSuffix,
    Optional<String> auditInfo) {

  private static final RequestOptions NONE =
      new RequestOptions(Optional.empty(), Optional.empty(), Optional.empty());

  /** Creates options; every argument must be non-null (use empty optionals). */
  public RequestOptions {
    Objects.requireNonNull(customerKey, "customerKey");
    Objects.requireNonNull(userAgentSuffix, "userAgentSuffix");
    Objects.requireNonNull(auditInfo, "auditInfo");
  }

  /** No SSE-C key, no user-agent suffix, no audit string. */
  public static RequestOptions none() {
    return NONE;
  }

  /** These options with {@code key} as the SSE-C key. */
  public RequestOptions withCustomerKey(CustomerKey key) {
    return new RequestOptions(Optional.of(key), userAgentSuffix, auditInfo);
  }

  /** These options with {@code suffix} appended to the user agent. */
  public RequestOptions withUserAgentSuffix(String suffix) {
    return new RequestOptions(customerKey, Optional.of(suffix), auditInfo);
  }

  /** These options with {@code audit} sent as the request's audit string. */
  public RequestOptions withAuditInfo(String audit) {
    return new RequestOptions(customerKey, userAgentSuffix, Optional.of(audit));
  }
}
