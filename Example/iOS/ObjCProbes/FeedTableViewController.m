// A feed in the shape DWURunLoopWorkDistribution users write: each row's cell is bound in
// -tableView:cellForRowAtIndexPath:, its images drawn by one idle task each, and the display callbacks tell the
// queue which cells are on screen.
@import UIKit;
@import IdleWorkObjC;

@interface FeedTableViewController : UITableViewController
@property (nonatomic, strong) IWIdleQueue *queue;
@property (nonatomic, copy) NSArray<NSArray<NSString *> *> *imageNames;  // per row
@end

@implementation FeedTableViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.queue = [IWIdleQueue scrollingFeedQueue];
    [self.tableView registerClass:[UITableViewCell class] forCellReuseIdentifier:@"Cell"];
    NSMutableArray<NSArray<NSString *> *> *rows = [NSMutableArray array];
    for (NSInteger row = 0; row < 500; row++) {
        [rows addObject:@[ @"spaceship", @"planet", @"comet" ]];
    }
    self.imageNames = rows;

    // Work too long for one pass: an index built a slice at a time, each slice within the time it is given.
    __block NSInteger next = 0;
    NSInteger total = rows.count;
    [self.queue addResumableTaskWithKey:@"index" slice:^BOOL(NSTimeInterval (^timeRemaining)(void)) {
        while (next < total && timeRemaining() > 0.001) {
            next += 1;
        }
        return next == total;
    }];
}

- (void)dealloc {
    [_queue invalidate];
}

- (NSInteger)tableView:(UITableView *)tableView numberOfRowsInSection:(NSInteger)section {
    return (NSInteger)self.imageNames.count;
}

- (UITableViewCell *)tableView:(UITableView *)tableView cellForRowAtIndexPath:(NSIndexPath *)indexPath {
    UITableViewCell *cell = [tableView dequeueReusableCellWithIdentifier:@"Cell" forIndexPath:indexPath];
    [self.queue bindCell:cell toIndexPath:indexPath];
    for (UIView *view in cell.contentView.subviews) {
        if (view.tag > 0) {
            [view removeFromSuperview];
        }
    }
    cell.textLabel.text = [NSString stringWithFormat:@"Row %ld", (long)indexPath.row];

    NSArray<NSString *> *names = self.imageNames[(NSUInteger)indexPath.row];
    [names enumerateObjectsUsingBlock:^(NSString *name, NSUInteger index, BOOL *stop) {
        // Runs in a later pass, only while this cell still shows this row.
        [self.queue addTaskForCell:cell atIndexPath:indexPath block:^(UITableViewCell *cell) {
            UIImageView *imageView = [[UIImageView alloc] initWithFrame:CGRectMake(100 + 90 * index, 10, 80, 80)];
            imageView.tag = (NSInteger)index + 1;
            imageView.image = [UIImage imageNamed:name];
            [cell.contentView addSubview:imageView];
        }];
    }];
    return cell;
}

- (void)tableView:(UITableView *)tableView
      willDisplayCell:(UITableViewCell *)cell
    forRowAtIndexPath:(NSIndexPath *)indexPath {
    [self.queue cellWillDisplay:cell atIndexPath:indexPath];
}

- (void)tableView:(UITableView *)tableView
    didEndDisplayingCell:(UITableViewCell *)cell
       forRowAtIndexPath:(NSIndexPath *)indexPath {
    [self.queue cellDidEndDisplaying:cell atIndexPath:indexPath];
}

- (void)tableView:(UITableView *)tableView didSelectRowAtIndexPath:(NSIndexPath *)indexPath {
    // A cell task's key is its index path: cancel the row's pending draws.
    NSInteger cancelled = [self.queue cancelTasksForKey:indexPath];
    // A keyed task, last one wins, and its handle.
    __weak typeof(self) weakSelf = self;
    IWTaskHandle *handle = [self.queue addTaskWithKey:@"title"
                                          droppable:NO
                                      replacesPending:YES
                                                block:^{
                                                    weakSelf.title = [NSString stringWithFormat:@"%ld cancelled", (long)cancelled];
                                                }];
    if (handle.isPending && cancelled == 0) {
        [handle cancel];
    }
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    IWStatistics *statistics = self.queue.statistics;
    NSLog(@"added %ld executed %ld stale %ld evicted %ld cancelled %ld pending %ld longest pass %.4f s",
          (long)statistics.added, (long)statistics.executed, (long)statistics.skippedAsStale,
          (long)statistics.evicted, (long)statistics.cancelled, (long)statistics.pending,
          statistics.longestPassDuration);
    [self.queue cancelAllTasks];
}

@end
