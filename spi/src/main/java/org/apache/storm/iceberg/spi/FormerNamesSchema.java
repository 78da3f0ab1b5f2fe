package org.apache.storm.iceberg.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.TypeUtil;

/**
 * A table's current schema as the kernel hands it to a {@link RecordMapper}: the same columns, ids
 * and schema id, plus the names its columns had in the table's earlier schemas. Iceberg keeps a
 * column's field id across renames, so a value a producer still sends under a former name belongs
 * to the renamed column.
 *
 * <p>Names are full names, as {@link TypeUtil#indexByName} gives them ({@code "address.city"}). A
 * former name is one a column that still exists carried in an earlier schema and no column carries
 * now: a current name always wins. When two columns carried one name at different times, the later
 * schema (the higher schema id) wins.
 *
 * <p>Iceberg's own aliases ({@link #aliasToId}) hold one name per column, so they carry each
 * column's most recent former name; {@link #formerNames} carries every one. Built once per schema,
 * never per record; immutable.
 */
public final class FormerNamesSchema extends Schema {
  private static final long serialVersionUID = 1L;

  private final Map<String, Integer> formerNames;

  private FormerNamesSchema(Schema current, Map<String, Integer> formerNames, Map<String, Integer> latestAliases) {
    super(current.schemaId(), current.columns(), latestAliases, current.identifierFieldIds());
    this.formerNames = Map.copyOf(formerNames);
  }

  /**
   * {@code current} with the former names its columns carry in {@code schemas} (a table's {@code
   * schemas().values()}; {@code current} among them or not).
   */
  public static FormerNamesSchema of(Schema current, Iterable<Schema> schemas) {
    Map<String, Integer> currentNames = TypeUtil.indexByName(current.asStruct());
    Map<Integer, String> liveIds = TypeUtil.indexNameById(current.asStruct());
    List<Schema> history = new ArrayList<>();
    schemas.forEach(history::add);
    history.sort(Comparator.comparingInt(Schema::schemaId));
    Map<String, Integer> former = new HashMap<>();
    Map<Integer, String> latestFormer = new HashMap<>();
    for (Schema earlier : history) {
      TypeUtil.indexByName(earlier.asStruct())
          .forEach(
              (name, id) -> {
                if (!currentNames.containsKey(name) && liveIds.containsKey(id)) {
                  former.put(name, id);
                  latestFormer.put(id, name);
                }
              });
    }
    Map<String, Integer> aliases = new HashMap<>();
    former.forEach(
        (name, id) -> {
          if (name.equals(latestFormer.get(id))) {
            aliases.put(name, id);
          }
        });
    return new FormerNamesSchema(current, former, aliases);
  }

  /** Every former name (full name) to the id of the column that now carries another name. */
  public Map<String, Integer> formerNames() {
    return formerNames;
  }

  /**
   * The former names {@code schema} carries: all of them for a {@code FormerNamesSchema}, its
   * Iceberg aliases for any other schema (none when it has no aliases).
   */
  public static Map<String, Integer> formerNames(Schema schema) {
    if (schema instanceof FormerNamesSchema withHistory) {
      return withHistory.formerNames;
    }
    Map<String, Integer> aliases = schema.getAliases();
    return aliases == null ? Map.of() : aliases;
  }
}
