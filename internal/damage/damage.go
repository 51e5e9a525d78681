// Package damage breaks SQLite database files on purpose, for the tests of
// mneme's integrity checks and repair.
package damage

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"

	_ "modernc.org/sqlite" // the driver
)

// Page writes garbage over the middle leaf page of the b-tree named name
// (a table or an index) in the SQLite database at path, which no process
// may have open. It returns the page number and how many cells (rows) the
// page held.
func Page(path, name string) (page, cells int, err error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return 0, 0, err
	}
	db.SetMaxOpenConns(1)
	var size int
	rows, err := db.Query("SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", name)
	type leaf struct{ page, cells int }
	var leaves []leaf
	if err == nil {
		for rows.Next() {
			var l leaf
			if err = rows.Scan(&l.page, &l.cells); err != nil {
				break
			}
			leaves = append(leaves, l)
		}
		rows.Close()
	}
	if err == nil {
		err = db.QueryRow("PRAGMA page_size").Scan(&size)
	}
	if cerr := db.Close(); err == nil { // the last connection: checkpoints the WAL into the file
		err = cerr
	}
	if err != nil {
		return 0, 0, err
	}
	if len(leaves) < 3 {
		return 0, 0, fmt.Errorf("%s has %d leaf pages: too few to damage one in the middle", name, len(leaves))
	}
	mid := leaves[len(leaves)/2]
	garbage := make([]byte, size)
	r := rand.New(rand.NewPCG(1, uint64(mid.page)))
	for i := range garbage {
		garbage[i] = byte(r.Uint32())
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	_, err = f.WriteAt(garbage, int64(mid.page-1)*int64(size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return mid.page, mid.cells, err
}
