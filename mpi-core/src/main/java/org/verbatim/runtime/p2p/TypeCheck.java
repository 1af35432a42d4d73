package org.verbatim.runtime.p2p;

/**
 * The receiving side of {@code verbatim.core.check-types}: whether a message whose sender's
 * type signature has the 16-bit code {@code code} (in the wire header) may be received by this
 * receive's datatype. Set on a receive only when the check is on; code 0 is never checked.
 */
public interface TypeCheck {
    /** True if the first {@code bytes} bytes of this receive's type have the signature {@code code}. */
    boolean accepts(short code, long bytes);
}
