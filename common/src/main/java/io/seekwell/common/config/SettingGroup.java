package io.seekwell.common.config;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings declared under one key prefix, such as {@code client.}: what a configuration class
 * reads from a map, starts its builder from and lists in the configuration reference. Immutable and
 * thread-safe.
 */
public final class SettingGroup {

  private final String prefix;
  private final List<Setting<?>> settings;

  private SettingGroup(String prefix, List<Setting<?>> settings) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.settings = List.copyOf(settings);
    Set<String> keys = new HashSet<>();
    for (Setting<?> setting : this.settings) {
      if (!keys.add(setting.key())) {
        throw new IllegalArgumentException(
            "Setting '" + prefix + setting.key() + "' declared twice");
      }
    }
  }

  /** The group of {@code settings} under {@code prefix}; each key may be declared once. */
  public static SettingGroup of(String prefix, Setting<?>... settings) {
    return new SettingGroup(prefix, List.of(settings));
  }

  /** The prefix of every key of the group, such as {@code client.}. */
  public String prefix() {
    return prefix;
  }

  /** The settings, in the order declared. */
  public List<Setting<?>> settings() {
    return settings;
  }

  /**
   * The key of {@code setting} with the group's prefix, as the configuration reference lists it.
   */
  public String fullKey(Setting<?> setting) {
    return prefix + setting.key();
  }

  /** Every setting at its default. */
  public SettingValues defaults() {
    Map<Setting<?>, Object> values = new LinkedHashMap<>();
    settings.forEach(setting -> values.put(setting, setting.defaultValue()));
    return new SettingValues(this, values);
  }

  /**
   * Every setting read from the keys under the prefix of {@code configuration}, unset ones at their
   * defaults. Each key read counts as known to {@link ConnectorConfiguration#requireEveryKeyRead}.
   *
   * @throws IllegalArgumentException naming the full key, for a value that cannot be used
   */
  public SettingValues read(ConnectorConfiguration configuration) {
    ConnectorConfiguration narrowed = configuration.narrow(prefix);
    Map<Setting<?>, Object> values = new LinkedHashMap<>();
    settings.forEach(setting -> values.put(setting, setting.read(narrowed)));
    return new SettingValues(this, values);
  }

  /**
   * {@code value}, if {@code setting} allows it: for configuration records that take their values
   * in code rather than from a map.
   *
   * @throws IllegalArgumentException naming the setting's full key and what it allows
   */
  public <T> T check(Setting<T> setting, T value) {
    return setting.check(fullKey(setting), value);
  }

  /** Whether {@code setting} is one of this group's. */
  boolean declares(Setting<?> setting) {
    return settings.contains(setting);
  }

  @Override
  public String toString() {
    return prefix + settings;
  }
}
