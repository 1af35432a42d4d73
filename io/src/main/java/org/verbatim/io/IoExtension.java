package org.verbatim.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.ext.RuntimeExtension;
import org.verbatim.runtime.io.FileGroup;
import org.verbatim.runtime.io.FileProvider;
import org.verbatim.runtime.io.IoFile;

/**
 * The io module as the runtime sees it: a {@link RuntimeExtension} (no message kinds of its own:
 * its collectives go through the file's {@link FileGroup}) that is also the {@link FileProvider}
 * behind {@code mpi.File}. Nonblocking accesses are pollers of the progress engine.
 */
public final class IoExtension implements RuntimeExtension, FileProvider {
    private ExtensionContext ctx;
    private IoSettings settings;

    @Override
    public String name() {
        return "io";
    }

    @Override
    public void start(ExtensionContext context) {
        this.ctx = context;
        this.settings = IoSettings.from(context.config());
    }

    @Override
    public IoFile open(FileGroup group, String path, int amode, Map<String, String> info) {
        return FileOpening.open(this, group, path, amode, info, settings);
    }

    @Override
    public void delete(String path, Map<String, String> info) {
        try {
            Files.delete(Path.of(path));
        } catch (InvalidPathException e) {
            throw new MpiError(ErrorClass.ERR_BAD_FILE, "bad file name " + path);
        } catch (IOException e) {
            throw FileErrors.of(path, e);
        }
    }

    /** Lets the progress engine advance {@code request}. */
    void addPoller(IoRequest request) {
        ctx.addPoller(request);
    }
}
