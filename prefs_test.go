package mneme_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/rank"
	"github.com/mneme-ai/mneme/sqlite"
)

// prefCase is one question of the preference and update test set (written
// for mneme, no public benchmark's): the user's history, oldest first, a
// day apart, and the question, whose answer is want (a history entry).
type prefCase struct {
	history []string
	query   string
	want    string
}

// prefCases: advice questions whose evidence is a preference stated
// earlier in passing, and knowledge updates whose newer statement holds.
var prefCases = []prefCase{
	{[]string{"I'm vegetarian, so no meat for me, ever.", "We had a long meeting about the quarterly budget.", "The restaurant downtown has a great steak menu.", "I tried a new Italian restaurant last week, the service was slow."},
		"Can you recommend a restaurant for dinner with my team?", "I'm vegetarian, so no meat for me, ever."},
	{[]string{"I prefer aisle seats on long flights.", "My flight to Chicago was delayed by two hours.", "Booked a hotel near the airport for the conference.", "The airline lost my luggage once in 2019."},
		"Any tips for booking my flight to Tokyo?", "I prefer aisle seats on long flights."},
	{[]string{"I'm allergic to peanuts.", "Baking cookies with the kids this weekend.", "The bakery on Main Street sells amazing bread.", "We need snacks for the hiking trip."},
		"What snacks should I pack for the hike?", "I'm allergic to peanuts."},
	{[]string{"I hate crowded places and loud music.", "Thinking about what to do for my birthday.", "My friends went to a big concert last month.", "There's a new bar opening on Friday."},
		"Suggest something to do for my birthday evening.", "I hate crowded places and loud music."},
	{[]string{"My favourite authors write slow, quiet literary fiction.", "I finished a thriller on the train, it was fine.", "The library has a new sci-fi section.", "Book club meets on Thursdays."},
		"What book would you recommend I read next?", "My favourite authors write slow, quiet literary fiction."},
	{[]string{"I'd rather take the train than drive.", "The conference in Berlin is in March.", "Rental cars are cheap in Germany this year.", "Packed my laptop and charger."},
		"How should I get to the Berlin conference? Any advice?", "I'd rather take the train than drive."},
	{[]string{"I live in Berlin, in a flat near the park.", "The weather has been rainy all week.", "Work is busy with the product launch.", "I moved to Lisbon last month, I live near the river now."},
		"Where do I live?", "I moved to Lisbon last month, I live near the river now."},
	{[]string{"My manager is Anna, she runs the data team.", "Lunch with the design team was fun.", "We shipped the new dashboard.", "Anna left; my manager is now Tom from the platform team."},
		"Who is my manager?", "Anna left; my manager is now Tom from the platform team."},
	{[]string{"I run 10 km three times a week.", "Bought new running shoes.", "Knee hurts after the trail run.", "Since the knee injury I only run 5 km twice a week."},
		"How much do I run these days?", "Since the knee injury I only run 5 km twice a week."},
	{[]string{"My phone number is on the old contract, ending 4411.", "The billing system sent two invoices.", "Called support about the router.", "I changed my phone number; the new one ends 9020."},
		"What is my latest phone number?", "I changed my phone number; the new one ends 9020."},
}

// TestPreferencesAndUpdates measures, with the real model, how often the
// evidence of prefCases ranks first under the default profile and under
// one without the preference, update and recency boosts, and holds the
// default to doing better. Skipped without the model.
func TestPreferencesAndUpdates(t *testing.T) {
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		skips.Skip(t, "mneme model fetch", "the built-in model is not installed: "+err.Error())
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	off := rank.Default()
	off.PreferBoost, off.UpdateBoost, off.RecentBoost = 0, 0, 0
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em), mneme.WithClock(func() time.Time { return now }),
		mneme.WithProfiles(map[string]rank.Profile{"off": off}))
	for i, c := range prefCases {
		project := string(rune('a' + i))
		for j, h := range c.history {
			at := now.AddDate(0, 0, j-len(c.history))
			if _, err := eng.Remember(ctx, []*mneme.Record{{Project: project, Text: h, OccurredAt: &at}}, mneme.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	first := map[string]int{}
	for _, profile := range []string{"", "off"} {
		for i, c := range prefCases {
			res, err := eng.Recall(ctx, mneme.Query{Text: c.query, K: 5, Filter: mneme.Filter{Project: string(rune('a' + i))}, Profile: profile})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) > 0 && res.Hits[0].Record.Text == c.want {
				first[profile]++
			} else if profile == "" {
				t.Logf("%q: first %v", c.query, texts(res))
			}
		}
	}
	t.Logf("evidence first: %d of %d with the default profile, %d without the boosts", first[""], len(prefCases), first["off"])
	if first[""] <= first["off"] || first[""] < 4 {
		t.Errorf("evidence first in %d of %d (without the boosts %d): want at least 4 (measured when the defaults were chosen), and more than without", first[""], len(prefCases), first["off"])
	}
}
