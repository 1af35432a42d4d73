package mpi;

import static mpi.GroupAlgebraTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Serialized attribute values and typed keyvals: no MPI.Init needed. */
class AttributesTest {
    @Test
    void valuesAreStoredAsCopiesAndEveryGetIsAFreshCopy() throws Exception {
        int k = Attributes.createKeyval(Attributes.Kind.COMM);
        Attributes a = new Attributes();
        List<String> v = new ArrayList<>(List.of("a", "b"));
        a.set(k, v);
        v.add("changed after set");
        Object first = a.get(k);
        assertEquals(List.of("a", "b"), first);
        assertNotSame(first, a.get(k));
        assertNull(a.get(k + 1000));
        Attributes.freeKeyval(Attributes.Kind.COMM, k);
    }

    @Test
    void dupCopiesTheValuesAndTheCopiesAreIndependent() throws Exception {
        int k = Attributes.createKeyval(Attributes.Kind.COMM);
        Attributes a = new Attributes();
        a.set(k, 42);
        Attributes b = a.copyForDup(false);
        assertEquals(42, b.get(k));
        b.set(k, 43);
        assertEquals(42, a.get(k));
        assertTrue(a.delete(k));
        assertFalse(a.delete(k));
        assertEquals(43, b.get(k));
        b.clear();
        assertEquals(0, b.count());
        assertFalse(a.predefined());
        assertTrue(a.copyForDup(true).predefined());
        assertTrue(a.copyForDup(true).copyForDup(false).predefined());
    }

    @Test
    void valuesThatCannotBeSerializedAreRefused() throws Exception {
        int k = Attributes.createKeyval(Attributes.Kind.COMM);
        assertError(MPI.ERR_ARG, () -> new Attributes().set(k, new Object()));
        new Attributes().set(k, null);
    }

    @Test
    void keyvalsAreTypedAndDieWhenFreed() throws Exception {
        int c = Attributes.createKeyval(Attributes.Kind.COMM);
        int t = Attributes.createKeyval(Attributes.Kind.DATATYPE);
        assertTrue(c >= Attributes.FIRST_USER_KEYVAL && t != c);
        Attributes.checkKeyval(Attributes.Kind.COMM, c);
        assertError(MPI.ERR_KEYVAL, () -> Attributes.checkKeyval(Attributes.Kind.DATATYPE, c));
        assertError(MPI.ERR_KEYVAL, () -> Attributes.checkKeyval(Attributes.Kind.COMM, 0));
        assertError(MPI.ERR_KEYVAL, () -> Attributes.freeKeyval(Attributes.Kind.COMM, t));
        Attributes.freeKeyval(Attributes.Kind.COMM, c);
        assertError(MPI.ERR_KEYVAL, () -> Attributes.checkKeyval(Attributes.Kind.COMM, c));
        assertError(MPI.ERR_KEYVAL, () -> Attributes.freeKeyval(Attributes.Kind.COMM, c));
        Attributes.freeKeyval(Attributes.Kind.DATATYPE, t);
    }
}
