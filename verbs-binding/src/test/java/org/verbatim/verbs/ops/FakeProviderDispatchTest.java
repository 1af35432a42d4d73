package org.verbatim.verbs.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.verbatim.verbs.raw.ibv_modify_cq_attr;
import org.verbatim.verbs.raw.ibv_port_attr;
import org.verbatim.verbs.raw.ibv_recv_wr;
import org.verbatim.verbs.raw.ibv_send_wr;
import org.verbatim.verbs.raw.ibv_wc;
import org.verbatim.verbs.raw.verbs_context;
import org.verbatim.verbs.raw.verbs_h_constants;

/**
 * Calls each Java implementation of a static-inline verb and the header's own inline (compiled by
 * gcc into the fake provider) on the same objects, and compares results and what the provider saw.
 */
class FakeProviderDispatchTest {

    private final Arena arena = Arena.ofAuto();

    @Test
    void postSendMatchesC() throws Throwable {
        MemorySegment ctx = FakeProvider.open(true, 0);
        MemorySegment qp = FakeProvider.object("qp", ctx);
        ContextOps ops = ContextOps.of(ctx);
        MemorySegment first = ibv_send_wr.allocate(arena);
        MemorySegment second = ibv_send_wr.allocate(arena);
        ibv_send_wr.wr_id(first, 1);
        ibv_send_wr.num_sge(first, 2);
        ibv_send_wr.next(first, second);
        ibv_send_wr.wr_id(second, 0xbad);
        comparePost("ibv_post_send", qp, first, second, (o, w, b) -> ops.postSend(o, w, b));
        ibv_send_wr.next(first, MemorySegment.NULL);
        comparePost("ibv_post_send", qp, first, MemorySegment.NULL, (o, w, b) -> ops.postSend(o, w, b));
    }

    @Test
    void postRecvAndPostSrqRecvMatchC() throws Throwable {
        MemorySegment ctx = FakeProvider.open(false, 0);
        ContextOps ops = ContextOps.of(ctx);
        MemorySegment wr = ibv_recv_wr.allocate(arena);
        ibv_recv_wr.wr_id(wr, 0xbad);
        ibv_recv_wr.num_sge(wr, 3);
        comparePost("ibv_post_recv", FakeProvider.object("qp", ctx), wr, wr, (o, w, b) -> ops.postRecv(o, w, b));
        comparePost("ibv_post_srq_recv", FakeProvider.object("srq", ctx), wr, wr, (o, w, b) -> ops.postSrqRecv(o, w, b));
        ibv_recv_wr.wr_id(wr, 7);
        comparePost("ibv_post_srq_recv", FakeProvider.object("srq", ctx), wr, MemorySegment.NULL, (o, w, b) -> ops.postSrqRecv(o, w, b));
    }

    interface Post {
        int post(MemorySegment obj, MemorySegment wr, MemorySegment bad) throws Throwable;
    }

    private void comparePost(String verb, MemorySegment obj, MemorySegment wr, MemorySegment expectedBad, Post java) throws Throwable {
        MemorySegment cBad = arena.allocate(ADDRESS);
        FakeProvider.reset();
        int cResult = FakeProvider.c(verb, FakeProvider.POST, obj, wr, cBad);
        FakeProvider.Call cCall = FakeProvider.lastCall();
        MemorySegment javaBad = arena.allocate(ADDRESS);
        FakeProvider.reset();
        int javaResult = java.post(obj, wr, javaBad);
        FakeProvider.Call javaCall = FakeProvider.lastCall();
        assertEquals(cResult, javaResult, verb);
        if (expectedBad.equals(MemorySegment.NULL)) {
            assertEquals(0, cResult, verb + " result");
        } else {
            assertTrue(cResult == 22 || cResult == 12, verb + " refused with EINVAL or ENOMEM, got " + cResult);
        }
        assertEquals(expectedBad.address(), cBad.get(ADDRESS, 0).address(), verb + " bad_wr (C)");
        assertEquals(expectedBad.address(), javaBad.get(ADDRESS, 0).address(), verb + " bad_wr (Java)");
        assertEquals(new FakeProvider.Call(cCall.op(), cCall.intArg(), cCall.obj(), cCall.arg(), 0),
                new FakeProvider.Call(javaCall.op(), javaCall.intArg(), javaCall.obj(), javaCall.arg(), 0), verb + " provider saw");
        assertEquals(obj.address(), javaCall.obj());
    }

    @Test
    void pollCqMatchesC() throws Throwable {
        MemorySegment ctx = FakeProvider.open(true, 0);
        MemorySegment cq = FakeProvider.object("cq", ctx);
        ContextOps ops = ContextOps.of(ctx);
        MemorySegment cWc = ibv_wc.allocateArray(5, arena);
        MemorySegment javaWc = ibv_wc.allocateArray(5, arena);
        int c = FakeProvider.c("ibv_poll_cq", FakeProvider.POLL, cq, 5, cWc);
        int java = ops.pollCq(cq, 5, javaWc);
        assertEquals(3, c);
        assertEquals(c, java);
        assertArrayEquals(cWc.toArray(ValueLayout.JAVA_BYTE), javaWc.toArray(ValueLayout.JAVA_BYTE));
        for (int i = 0; i < 3; i++) {
            MemorySegment wc = javaWc.asSlice(i * ibv_wc.sizeof(), ibv_wc.sizeof());
            assertEquals(100 + i, ibv_wc.wr_id(wc));
            assertEquals(10 * i, ibv_wc.byte_len(wc));
            assertEquals(verbs_h_constants.IBV_WC_RECV, ibv_wc.opcode(wc));
            assertEquals(0xabcd0000 + i, Integer.reverseBytes(ibv_wc.imm_data(wc)));
        }
        assertEquals(1, ops.pollCq(cq, 1, javaWc));
    }

    @Test
    void reqNotifyCqMatchesC() throws Throwable {
        MemorySegment ctx = FakeProvider.open(false, 0);
        MemorySegment cq = FakeProvider.object("cq", ctx);
        ContextOps ops = ContextOps.of(ctx);
        for (int solicited = 0; solicited <= 1; solicited++) {
            int c = FakeProvider.c("ibv_req_notify_cq", FakeProvider.NOTIFY, cq, solicited);
            FakeProvider.Call cCall = FakeProvider.lastCall();
            int java = ops.reqNotifyCq(cq, solicited == 1);
            assertEquals(40 + solicited, c);
            assertEquals(c, java);
            assertEquals(cCall.intArg(), FakeProvider.lastCall().intArg());
        }
    }

    @Test
    void queryPortTakesTheExtendedOpLikeTheMacro() throws Throwable {
        MemorySegment ctx = FakeProvider.open(true, 0);
        ContextOps ops = ContextOps.of(ctx);
        MemorySegment cAttr = ibv_port_attr.allocate(arena);
        MemorySegment javaAttr = ibv_port_attr.allocate(arena);
        javaAttr.fill((byte) 0x5a);
        cAttr.fill((byte) 0x5a);
        int c = FakeProvider.c("ibv_query_port", FakeProvider.QUERY_PORT, ctx, (byte) 2, cAttr);
        assertTrue(ops.hasExtendedQueryPort());
        int java = MacroVerbs.queryPort(ops, MemorySegment.NULL, (byte) 2, javaAttr);
        assertEquals(0, c);
        assertEquals(c, java);
        assertArrayEquals(cAttr.toArray(ValueLayout.JAVA_BYTE), javaAttr.toArray(ValueLayout.JAVA_BYTE));
        assertEquals(20, ibv_port_attr.lid(javaAttr));
        assertEquals((int) ibv_port_attr.sizeof(), ibv_port_attr.gid_tbl_len(javaAttr), "sizeof(*port_attr) passed");
        assertEquals(verbs_h_constants.IBV_PORT_ACTIVE, ibv_port_attr.state(javaAttr));
    }

    @Test
    void modifyCqIsUnsupportedWithoutTheExtendedOp() throws Throwable {
        MemorySegment attr = ibv_modify_cq_attr.allocate(arena);
        for (MemorySegment ctx : new MemorySegment[] {FakeProvider.open(true, 0), FakeProvider.open(false, 0),
                FakeProvider.open(true, 16)}) {
            MemorySegment cq = FakeProvider.object("cq", ctx);
            int c = FakeProvider.c("ibv_modify_cq", FakeProvider.TWO_POINTERS, cq, attr);
            assertEquals(c, ContextOps.of(ctx).modifyCq(cq, attr));
        }
        MemorySegment cq = FakeProvider.object("cq", FakeProvider.open(false, 0));
        assertEquals(ContextOps.EOPNOTSUPP, FakeProvider.c("ibv_modify_cq", FakeProvider.TWO_POINTERS, cq, attr));
    }

    @Test
    void extendedOpGuardMatchesVerbsGetCtxOpAtTheSizeBoundary() throws Throwable {
        long offset = (long) FakeProvider.call("c_offsetof_verbs_context_query_port", FunctionDescriptor.of(ValueLayout.JAVA_LONG));
        long boundary = verbs_context.sizeof() - offset;
        for (long size : new long[] {boundary - 8, boundary - 1, boundary, boundary + 8, verbs_context.sizeof()}) {
            MemorySegment ctx = FakeProvider.open(true, size);
            boolean c = FakeProvider.c("has_query_port", FakeProvider.ONE_POINTER, ctx) == 1;
            boolean java = !ExtendedContext.of(ctx).op("query_port").equals(MemorySegment.NULL);
            assertEquals(c, java, "sz = " + size);
            assertEquals(c, ContextOps.of(ctx).hasExtendedQueryPort());
        }
        assertFalse(ContextOps.of(FakeProvider.open(false, 0)).hasExtendedQueryPort());
        assertEquals(null, ExtendedContext.of(FakeProvider.open(false, 0)));
    }

    @Test
    void regMrRuleSendsOptionalAccessFlagsToIova2() {
        assertEquals(0x3ff00000, org.verbatim.verbs.raw.verbs_api_h_constants.IBV_ACCESS_OPTIONAL_RANGE);
        assertFalse(MacroVerbs.needsRegMrIova2(verbs_h_constants.IBV_ACCESS_LOCAL_WRITE | verbs_h_constants.IBV_ACCESS_REMOTE_WRITE
                | verbs_h_constants.IBV_ACCESS_REMOTE_READ));
        assertTrue(MacroVerbs.needsRegMrIova2(verbs_h_constants.IBV_ACCESS_LOCAL_WRITE | verbs_h_constants.IBV_ACCESS_RELAXED_ORDERING));
        assertTrue(MacroVerbs.needsRegMrIova2(1 << 20));
        assertTrue(MacroVerbs.needsRegMrIova2(1 << 29));
        assertFalse(MacroVerbs.needsRegMrIova2(1 << 30));
    }
}
