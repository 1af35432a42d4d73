/*
 * A test-only fake verbs provider: it fills a struct verbs_context / ibv_context with its own
 * ops, which record every call, and exports the header's static inline verbs compiled by gcc
 * (c_ibv_post_send, ...) so that the Java implementations can be compared with C on the same
 * objects. Nothing here talks to a kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <infiniband/verbs.h>

/* What the last op call saw. */
struct fake_call {
	int op;
	int int_arg;
	void *obj;
	void *arg;
	void *bad;
	long calls;
};

enum { OP_POST_SEND = 1, OP_POST_RECV, OP_POST_SRQ_RECV, OP_POLL_CQ, OP_REQ_NOTIFY_CQ, OP_QUERY_PORT, OP_MODIFY_CQ };

static struct fake_call last;

struct fake_call *fake_last_call(void) { return &last; }
void fake_reset(void) { memset(&last, 0, sizeof(last)); }

static void record(int op, void *obj, void *arg, void *bad, int int_arg)
{
	last.op = op;
	last.obj = obj;
	last.arg = arg;
	last.bad = bad;
	last.int_arg = int_arg;
	last.calls++;
}

/* A work request whose wr_id is 0xbad is refused: *bad points at it and EINVAL comes back. */
static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	record(OP_POST_SEND, qp, wr, bad, wr->num_sge);
	for (; wr; wr = wr->next)
		if (wr->wr_id == 0xbad) { *bad = wr; return EINVAL; }
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	record(OP_POST_RECV, qp, wr, bad, wr->num_sge);
	for (; wr; wr = wr->next)
		if (wr->wr_id == 0xbad) { *bad = wr; return ENOMEM; }
	return 0;
}

static int fake_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	record(OP_POST_SRQ_RECV, srq, wr, bad, wr->num_sge);
	for (; wr; wr = wr->next)
		if (wr->wr_id == 0xbad) { *bad = wr; return ENOMEM; }
	return 0;
}

/* Returns min(n, 3) completions with wr_id 100 + i, byte_len 10 * i, opcode IBV_WC_RECV. */
static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int i;

	record(OP_POLL_CQ, cq, wc, NULL, n);
	for (i = 0; i < n && i < 3; i++) {
		memset(&wc[i], 0, sizeof(wc[i]));
		wc[i].wr_id = 100 + i;
		wc[i].status = IBV_WC_SUCCESS;
		wc[i].opcode = IBV_WC_RECV;
		wc[i].byte_len = 10 * i;
		wc[i].qp_num = 0x1234;
		wc[i].imm_data = htobe32(0xabcd0000u + i);
		wc[i].wc_flags = IBV_WC_WITH_IMM;
	}
	return i;
}

static int fake_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	record(OP_REQ_NOTIFY_CQ, cq, NULL, NULL, solicited_only);
	return 40 + solicited_only;
}

static int fake_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr, size_t size)
{
	record(OP_QUERY_PORT, ctx, attr, NULL, port);
	attr->state = IBV_PORT_ACTIVE;
	attr->active_mtu = IBV_MTU_1024;
	attr->lid = port * 10;
	attr->gid_tbl_len = (int) size;
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

static int fake_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	record(OP_MODIFY_CQ, cq, attr, NULL, 0);
	return 77;
}

/*
 * Opens a fake context. extended != 0 makes it a verbs_context (abi_compat == -1) whose sz is
 * size (0: the full struct); a small size hides the extended ops, as for an old provider.
 */
struct ibv_context *fake_open(int extended, size_t size)
{
	struct verbs_context *vctx = calloc(1, sizeof(*vctx));
	struct ibv_context *ctx = &vctx->context;

	ctx->ops.post_send = fake_post_send;
	ctx->ops.post_recv = fake_post_recv;
	ctx->ops.post_srq_recv = fake_post_srq_recv;
	ctx->ops.poll_cq = fake_poll_cq;
	ctx->ops.req_notify_cq = fake_req_notify_cq;
	if (extended) {
		ctx->abi_compat = __VERBS_ABI_IS_EXTENDED;
		vctx->sz = size ? size : sizeof(*vctx);
		vctx->query_port = fake_query_port;
		vctx->modify_cq = fake_modify_cq;
	}
	return ctx;
}

void fake_close(struct ibv_context *ctx)
{
	free((char *) ctx - offsetof(struct verbs_context, context));
}

struct ibv_qp *fake_qp(struct ibv_context *ctx)
{
	struct ibv_qp *qp = calloc(1, sizeof(*qp));
	qp->context = ctx;
	qp->qp_num = 0x1234;
	return qp;
}

struct ibv_cq *fake_cq(struct ibv_context *ctx)
{
	struct ibv_cq *cq = calloc(1, sizeof(*cq));
	cq->context = ctx;
	return cq;
}

struct ibv_srq *fake_srq(struct ibv_context *ctx)
{
	struct ibv_srq *srq = calloc(1, sizeof(*srq));
	srq->context = ctx;
	return srq;
}

/* The header's inline verbs, as C callers get them. */
int c_ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad) { return ibv_post_send(qp, wr, bad); }
int c_ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad) { return ibv_post_recv(qp, wr, bad); }
int c_ibv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad) { return ibv_post_srq_recv(srq, wr, bad); }
int c_ibv_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc) { return ibv_poll_cq(cq, n, wc); }
int c_ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only) { return ibv_req_notify_cq(cq, solicited_only); }
int c_ibv_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr) { return ibv_query_port(ctx, port, attr); }
int c_ibv_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr) { return ibv_modify_cq(cq, attr); }
/* verbs_get_ctx_op as C sees it: 1 if the op is reachable. */
int c_has_query_port(struct ibv_context *ctx) { return verbs_get_ctx_op(ctx, query_port) != NULL; }
int c_has_modify_cq(struct ibv_context *ctx) { return verbs_get_ctx_op(ctx, modify_cq) != NULL; }
size_t c_offsetof_verbs_context_query_port(void) { return offsetof(struct verbs_context, query_port); }
