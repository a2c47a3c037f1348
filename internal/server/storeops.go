package server

import (
	"context"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/telemetry"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// countedStore counts every operation of the workspace store in /metrics
// (selenium_flow_store_operations_total{store="workspaces",op,outcome}):
// an operator sees a Redis that stops answering as errors climbing, and
// nothing of what is stored reaches a label.
type countedStore struct {
	next  workspaces.Store
	count func(op string, o telemetry.Outcome)
}

func (c countedStore) done(op string, err error) {
	o := telemetry.OK
	if err != nil {
		o = telemetry.Error
	}
	c.count(op, o)
}

func (c countedStore) Get(ctx context.Context, owner, name string) (workspaces.Record, bool, error) {
	r, ok, err := c.next.Get(ctx, owner, name)
	c.done("get", err)
	return r, ok, err
}

func (c countedStore) Put(ctx context.Context, r workspaces.Record) error {
	err := c.next.Put(ctx, r)
	c.done("put", err)
	return err
}

func (c countedStore) List(ctx context.Context, owner string) ([]workspaces.Record, error) {
	rs, err := c.next.List(ctx, owner)
	c.done("list", err)
	return rs, err
}

func (c countedStore) Close() error { return c.next.Close() }

func (c countedStore) PutTransport(ctx context.Context, t workspaces.Transport, ttl time.Duration) error {
	err := c.next.PutTransport(ctx, t, ttl)
	c.done("put_transport", err)
	return err
}

func (c countedStore) GetTransport(ctx context.Context, id string) (workspaces.Transport, bool, error) {
	t, ok, err := c.next.GetTransport(ctx, id)
	c.done("get_transport", err)
	return t, ok, err
}

func (c countedStore) DeleteTransport(ctx context.Context, id string) error {
	err := c.next.DeleteTransport(ctx, id)
	c.done("delete_transport", err)
	return err
}
