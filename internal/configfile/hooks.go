package configfile

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/tailscale/hujson"
)

// Hooks are kept in the shape Claude Code, Codex and Gemini CLI share:
//
//	"hooks": {"<Event>": [{"matcher": "…", "hooks": [{<handler>}, …]}, …]}
//
// A group is a matcher with its handlers. Which handlers are ours is the
// caller's to say (ours), so that an entry written by an older version,
// with another path or timeout, is found and updated rather than doubled.

// handlerAt is one of our handlers in an event's groups.
type handlerAt struct {
	group, handler int
	solo           bool // every handler of the group is ours
}

// SetHooks makes each event of groups, in the hooks object at path, hold
// the given groups and no other handler that ours claims, and reports
// whether the document changed. An event that already holds exactly these
// groups of ours is left alone; a group of ours alone is replaced where it
// stands; our handlers among other people's are taken out of their
// groups. The user's own groups and handlers are never touched.
func (d *JSON) SetHooks(groups map[string][]any, ours func(handler map[string]any) bool, path ...string) (bool, error) {
	v, err := d.lookup(path)
	if err != nil {
		return false, err
	}
	if v == nil {
		return d.Set(groups, path...)
	}
	if _, err := d.object(v, path); err != nil {
		return false, err
	}
	changed := false
	for _, event := range sortedKeys(groups) {
		c, err := d.setEventHooks(append(slices.Clone(path), event), groups[event], ours)
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	return changed, nil
}

// setEventHooks is SetHooks for one event, at evPath, and its groups.
func (d *JSON) setEventHooks(evPath []string, groups []any, ours func(handler map[string]any) bool) (bool, error) {
	want := make([]any, len(groups))
	for i, g := range groups {
		var err error
		if want[i], err = normalize(g); err != nil {
			return false, err
		}
	}
	ev, err := d.lookup(evPath)
	if err != nil {
		return false, err
	}
	if ev == nil {
		_, err := d.Set(want, evPath...)
		return err == nil, err
	}
	arr, err := d.array(ev, evPath)
	if err != nil {
		return false, err
	}
	found := d.ourHandlers(arr, ours)
	solo, others := soloGroups(found)
	if !others && len(solo) == len(want) && slices.EqualFunc(solo, want, func(i int, w any) bool {
		return reflect.DeepEqual(decode(arr.Elements[i]), w)
	}) {
		return false, nil
	}
	if len(want) == 1 && len(solo) > 0 {
		// Our group alone: replace it where it stands.
		d.replace(&arr.Elements[solo[0]], want[0])
		if err := d.reload(); err != nil {
			return false, err
		}
		found = slices.DeleteFunc(found, func(f handlerAt) bool { return f.group == solo[0] })
		return true, d.removeHandlers(evPath, found)
	}
	if err := d.removeHandlers(evPath, found); err != nil {
		return false, err
	}
	for _, w := range want {
		ev, _ := d.lookup(evPath)
		d.appendElement(ev, w)
		if err := d.reload(); err != nil {
			return false, err
		}
	}
	return true, nil
}

// soloGroups returns the groups, in order, that hold only handlers of
// ours among found, and whether some of ours share a group with others'.
func soloGroups(found []handlerAt) (solo []int, others bool) {
	for _, f := range found {
		if !f.solo {
			others = true
		} else if !slices.Contains(solo, f.group) {
			solo = append(solo, f.group)
		}
	}
	return solo, others
}

// DeleteHooks takes every handler that ours claims out of the hooks
// object at path (a group left without handlers goes, then an event left
// without groups, then the hooks object when it is left empty), and
// reports whether the document changed.
func (d *JSON) DeleteHooks(ours func(handler map[string]any) bool, path ...string) (bool, error) {
	v, err := d.lookup(path)
	if err != nil || v == nil {
		return false, err
	}
	obj, err := d.object(v, path)
	if err != nil {
		return false, err
	}
	var events []string
	for _, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok {
			events = append(events, lit.String())
		}
	}
	changed := false
	for _, event := range events {
		evPath := append(slices.Clone(path), event)
		ev, err := d.lookup(evPath)
		if err != nil || ev == nil {
			return changed, err
		}
		arr, ok := ev.Value.(*hujson.Array)
		if !ok {
			continue // not hooks of the shape we write: not ours
		}
		found := d.ourHandlers(arr, ours)
		if len(found) == 0 {
			continue
		}
		changed = true
		if err := d.removeHandlers(evPath, found); err != nil {
			return changed, err
		}
		if err := d.prune(evPath); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// ourHandlers finds the handlers in arr, an event's groups, that ours
// claims, in order.
func (d *JSON) ourHandlers(arr *hujson.Array, ours func(map[string]any) bool) []handlerAt {
	var found []handlerAt
	for i, g := range arr.Elements {
		obj, ok := g.Value.(*hujson.Object)
		if !ok {
			continue
		}
		m := findMember(obj, "hooks")
		if m < 0 {
			continue
		}
		handlers, ok := obj.Members[m].Value.Value.(*hujson.Array)
		if !ok {
			continue
		}
		var mine []int
		for j, h := range handlers.Elements {
			if hm, ok := decode(h).(map[string]any); ok && ours(hm) {
				mine = append(mine, j)
			}
		}
		for _, j := range mine {
			found = append(found, handlerAt{group: i, handler: j, solo: len(mine) == len(handlers.Elements)})
		}
	}
	return found
}

// removeHandlers removes the handlers found in the event at evPath: a
// group that holds only ours goes whole, else only our handlers leave it.
func (d *JSON) removeHandlers(evPath []string, found []handlerAt) error {
	removed := -1
	for _, f := range slices.Backward(found) {
		if f.solo {
			if f.group == removed {
				continue
			}
			removed = f.group
			if err := d.remove(append(slices.Clone(evPath), strconv.Itoa(f.group))); err != nil {
				return err
			}
			continue
		}
		if err := d.remove(append(slices.Clone(evPath), strconv.Itoa(f.group), "hooks", strconv.Itoa(f.handler))); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
