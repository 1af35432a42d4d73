package org.verbatim.verbs.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.verbs.Gcc;
import org.verbatim.verbs.generator.Generator;

/**
 * Regenerates the raw layer and the probe from the installed headers (castxml and gcc) and fails
 * on any difference from the committed files. To accept a change, regenerate (docs/verbs-binding.md).
 */
class GeneratedSourcesUpToDateTest {

    @Test
    void committedSourcesEqualFreshlyGeneratedOnes() throws Exception {
        List<String> differences = Generator.differences(Gcc.moduleDir(), Generator.generate());
        assertEquals(List.of(), differences,
                "generated sources are stale; run verbs-binding/regenerate (see docs/verbs-binding.md)");
    }
}
