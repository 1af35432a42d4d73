package org.verbatim.io;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;

/**
 * The io module's configuration ({@code verbatim.io.*}), read once per process; a file's hints
 * (ROMIO's names: {@code cb_buffer_size}, {@code cb_nodes}, {@code romio_cb_read},
 * {@code romio_cb_write}) override it for that file.
 *
 * @param cbBufferSize bytes each aggregator moves per round of two-phase collective I/O
 * @param cbNodes      aggregators (0: every member of the file's group)
 * @param cbRead       collective buffering for collective reads: auto, enable or disable
 * @param cbWrite      collective buffering for collective writes: auto, enable or disable
 */
record IoSettings(long cbBufferSize, int cbNodes, String cbRead, String cbWrite) {
    static final Setting CB_BUFFER_SIZE = new Setting("verbatim.io.cb-buffer-size", "16m",
            "Bytes each aggregator reads or writes per round of two-phase collective I/O "
                    + "(hint cb_buffer_size).");
    static final Setting CB_NODES = new Setting("verbatim.io.cb-nodes", "0",
            "Aggregators of two-phase collective I/O; 0 makes every member of the file's group "
                    + "one (hint cb_nodes).");
    static final Setting CB_READ = Setting.choice("verbatim.io.cb-read", "auto",
            "Two-phase collective buffering for collective reads: auto (when the members' "
                    + "accesses interleave), enable or disable (hint romio_cb_read).",
            "auto", "enable", "disable");
    static final Setting CB_WRITE = Setting.choice("verbatim.io.cb-write", "auto",
            "Two-phase collective buffering for collective writes: auto (when the members' "
                    + "accesses interleave), enable or disable (hint romio_cb_write).",
            "auto", "enable", "disable");

    /** Hint names (ROMIO's) and the settings they override. */
    private static final Map<String, Setting> HINTS = Map.of("cb_buffer_size", CB_BUFFER_SIZE,
            "cb_nodes", CB_NODES, "romio_cb_read", CB_READ, "romio_cb_write", CB_WRITE);

    static IoSettings from(Map<String, String> config) {
        try {
            long cb = CB_BUFFER_SIZE.getSize(config);
            int nodes = CB_NODES.getInt(config);
            if (cb < 4096 || cb > (1L << 30)) {
                throw new IllegalArgumentException("cb_buffer_size " + cb
                        + " is outside 4 KiB .. 1 GiB");
            }
            if (nodes < 0) {
                throw new IllegalArgumentException("cb_nodes " + nodes + " is negative");
            }
            return new IoSettings(cb, nodes, CB_READ.getChoice(config),
                    CB_WRITE.getChoice(config));
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_INFO_VALUE, e.getMessage());
        }
    }

    /** These settings with a file's hints applied; unknown hints are ignored (MPI 9.1). */
    IoSettings with(Map<String, String> hints) {
        Map<String, String> merged = new LinkedHashMap<>(asConfig());
        for (Map.Entry<String, Setting> h : HINTS.entrySet()) {
            String v = hints.get(h.getKey());
            if (v != null) {
                merged.put(h.getValue().name(), v.strip().toLowerCase(java.util.Locale.ROOT));
            }
        }
        return from(merged);
    }

    private Map<String, String> asConfig() {
        return Map.of(CB_BUFFER_SIZE.name(), Long.toString(cbBufferSize), CB_NODES.name(),
                Integer.toString(cbNodes), CB_READ.name(), cbRead, CB_WRITE.name(), cbWrite);
    }

    /** The hints in force, under their hint names (MPI_File_get_info). */
    Map<String, String> hints(int groupSize) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cb_buffer_size", Long.toString(cbBufferSize));
        m.put("cb_nodes", Integer.toString(aggregators(groupSize)));
        m.put("romio_cb_read", cbRead);
        m.put("romio_cb_write", cbWrite);
        return m;
    }

    /** Aggregators for a group of {@code groupSize}. */
    int aggregators(int groupSize) {
        return cbNodes == 0 ? groupSize : Math.min(cbNodes, groupSize);
    }

    /** The settings list for --print-config and the docs. */
    public static final class Provider implements SettingsProvider {
        @Override
        public String area() {
            return "io";
        }

        @Override
        public List<Setting> settings() {
            return List.of(CB_BUFFER_SIZE, CB_NODES, CB_READ, CB_WRITE);
        }
    }
}
