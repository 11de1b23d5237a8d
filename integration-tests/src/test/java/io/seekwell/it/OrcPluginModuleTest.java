package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ORC plug-in's jar, as published (ORC's classes relocated into it), is the module {@code
 * io.seekwell.orc}: it exports only the plug-in's package, provides the plug-in as a service, and
 * resolves on the module path with the modules it requires, none of them ORC's.
 */
class OrcPluginModuleTest {

  private static final String MODULE = "io.seekwell.orc";

  @Test
  void theJarIsANamedModuleThatExportsThePluginOnly() {
    ModuleDescriptor descriptor = descriptorOf(orcJar());

    assertEquals(MODULE, descriptor.name());
    assertFalse(descriptor.isAutomatic(), "a descriptor in the jar, not a name in its manifest");
    assertEquals(
        Set.of("io.seekwell.orc"),
        descriptor.exports().stream()
            .map(ModuleDescriptor.Exports::source)
            .collect(Collectors.toSet()));
    assertEquals(
        List.of("io.seekwell.orc.OrcFormatPlugin"),
        descriptor.provides().stream()
            .filter(provides -> provides.service().equals("io.seekwell.logical.FormatPlugin"))
            .flatMap(provides -> provides.providers().stream())
            .toList());
    assertTrue(
        descriptor.packages().contains("io.seekwell.shaded.orc"),
        "ORC's classes, relocated, are the module's own: " + descriptor.packages());
    assertTrue(
        descriptor.requires().stream().noneMatch(requires -> requires.name().contains("orc")),
        "reads no ORC module: " + descriptor.requires());
  }

  @Test
  void thePluginLoadsAsAServiceFromTheModulePath() throws ClassNotFoundException {
    Map<String, Path> modules = namedModulesOnTheClassPath();
    List<Path> needed = closureOf(MODULE, modules);
    Configuration configuration =
        ModuleLayer.boot()
            .configuration()
            .resolve(
                ModuleFinder.of(needed.toArray(Path[]::new)), ModuleFinder.of(), Set.of(MODULE));
    ModuleLayer layer =
        ModuleLayer.boot()
            .defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
    Class<?> service =
        layer.findLoader("io.seekwell").loadClass("io.seekwell.logical.FormatPlugin");

    List<String> plugins =
        ServiceLoader.load(layer, service).stream()
            .map(provider -> provider.get().getClass())
            .filter(type -> type.getModule().getLayer() == layer)
            .map(type -> type.getModule().getName() + "/" + type.getName())
            .toList();

    assertEquals(List.of(MODULE + "/io.seekwell.orc.OrcFormatPlugin"), plugins);
  }

  /** The jar of the ORC plug-in on the class path: the one Maven built and relocated. */
  private static Path orcJar() {
    return classPath().stream()
        .filter(path -> path.getFileName().toString().startsWith("seekwell-orc-logical-io"))
        .filter(path -> path.toString().endsWith(".jar"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no seekwell-orc-logical-io jar on the class path"));
  }

  private static ModuleDescriptor descriptorOf(Path jar) {
    return ModuleFinder.of(jar).findAll().iterator().next().descriptor();
  }

  /** Each jar of the class path that is a module (named or automatic), by module name. */
  private static Map<String, Path> namedModulesOnTheClassPath() {
    Map<String, Path> modules = new HashMap<>();
    for (Path entry : classPath()) {
      if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
        continue;
      }
      Optional<ModuleReference> reference;
      try {
        reference = ModuleFinder.of(entry).findAll().stream().findFirst();
      } catch (FindException notAModule) {
        // A jar whose name gives no valid automatic module name, and that no Seekwell module
        // requires (else the resolution below fails, naming the module).
        continue;
      }
      reference.ifPresent(ref -> modules.putIfAbsent(ref.descriptor().name(), entry));
    }
    return modules;
  }

  /** The jars of {@code root} and of every module it requires, directly or not. */
  private static List<Path> closureOf(String root, Map<String, Path> modules) {
    List<Path> jars = new ArrayList<>();
    Deque<String> names = new ArrayDeque<>(List.of(root));
    Set<String> seen = new HashSet<>();
    while (!names.isEmpty()) {
      String name = names.pop();
      if (!seen.add(name) || ModuleLayer.boot().findModule(name).isPresent()) {
        continue;
      }
      Path jar = modules.get(name);
      if (jar == null) {
        throw new AssertionError("module " + name + " is not on the class path");
      }
      jars.add(jar);
      descriptorOf(jar).requires().forEach(requires -> names.push(requires.name()));
    }
    return jars;
  }

  private static List<Path> classPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(Path::of)
        .toList();
  }
}
