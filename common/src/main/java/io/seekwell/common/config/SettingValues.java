package io.seekwell.common.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A value for each setting of a {@link SettingGroup}, each within its setting's range: what a
 * configuration class keeps and its accessors read. Immutable and thread-safe; {@link #with}
 * returns a copy.
 */
public final class SettingValues {

  private final SettingGroup group;
  private final Map<Setting<?>, Object> values;

  SettingValues(SettingGroup group, Map<Setting<?>, Object> values) {
    this.group = group;
    this.values = Map.copyOf(values);
  }

  /** The value of {@code setting}. */
  @SuppressWarnings("unchecked") // put only by with(...), which takes a T for a Setting<T>
  public <T> T get(Setting<T> setting) {
    T value = (T) values.get(setting);
    if (value == null) {
      throw new IllegalArgumentException(setting + " is not a setting of " + group);
    }
    return value;
  }

  /**
   * These values with {@code setting} set to {@code value}.
   *
   * @throws IllegalArgumentException naming the setting's full key and what it allows, for a value
   *     out of its range
   */
  public <T> SettingValues with(Setting<T> setting, T value) {
    if (!group.declares(setting)) {
      throw new IllegalArgumentException(setting + " is not a setting of " + group);
    }
    Map<Setting<?>, Object> changed = new LinkedHashMap<>(values);
    changed.put(setting, group.check(setting, value));
    return new SettingValues(group, changed);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SettingValues that && group == that.group && values.equals(that.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** The values in declaration order, as {@code key=value}. */
  @Override
  public String toString() {
    StringJoiner joined = new StringJoiner(", ", "{", "}");
    group.settings().forEach(setting -> joined.add(setting.key() + "=" + values.get(setting)));
    return joined.toString();
  }
}
