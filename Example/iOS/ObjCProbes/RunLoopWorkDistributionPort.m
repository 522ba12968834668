// The demo of DWURunLoopWorkDistribution (its ViewController.m) ported to IWIdleQueue, as a developer migrating
// from it would: rows of a label drawn at once and three image draws queued per row.
//
//   DWU                                              IdleWork
//   cell.currentIndexPath = indexPath;               [queue bindCell:cell toIndexPath:indexPath];
//   addTask:^BOOL{ if (![cell.currentIndexPath       addTaskForCell:cell atIndexPath:indexPath block:^(cell){ ... }]
//       isEqual:indexPath]) return NO; ... }         (a task of a reused cell is skipped by the queue)
//       withKey:indexPath];
//   (nothing)                                        cellWillDisplay:/cellDidEndDisplaying: from the delegate
@import UIKit;
@import IdleWorkObjC;

static NSString *const kCellIdentifier = @"PortCell";
static const CGFloat kCellHeight = 135;
static const NSInteger kRowCount = 399;

@interface RunLoopWorkDistributionPort : UIViewController <UITableViewDataSource, UITableViewDelegate>
@property (nonatomic, strong) UITableView *exampleTableView;
@end

@implementation RunLoopWorkDistributionPort

+ (void)removeDrawingsFromCell:(UITableViewCell *)cell {
    for (NSInteger tag = 1; tag <= 5; tag++) {
        [[cell.contentView viewWithTag:tag] removeFromSuperview];
    }
}

+ (void)addIndexLabelToCell:(UITableViewCell *)cell indexPath:(NSIndexPath *)indexPath {
    UILabel *label = [[UILabel alloc] initWithFrame:CGRectMake(5, 5, 300, 25)];
    label.textColor = [UIColor redColor];
    label.text = [NSString stringWithFormat:@"%ld - drawn at once", (long)indexPath.row];
    label.font = [UIFont boldSystemFontOfSize:13];
    label.tag = 1;
    [cell.contentView addSubview:label];
}

+ (UIImageView *)spaceshipViewWithFrame:(CGRect)frame tag:(NSInteger)tag {
    UIImageView *imageView = [[UIImageView alloc] initWithFrame:frame];
    imageView.tag = tag;
    imageView.contentMode = UIViewContentModeScaleAspectFit;
    NSString *path = [[NSBundle mainBundle] pathForResource:@"spaceship" ofType:@"jpg"];
    imageView.image = [UIImage imageWithContentsOfFile:path];
    return imageView;
}

+ (void)fadeInViews:(NSArray<UIView *> *)views intoCell:(UITableViewCell *)cell {
    [UIView transitionWithView:cell.contentView
                      duration:0.3
                       options:UIViewAnimationOptionCurveEaseInOut | UIViewAnimationOptionTransitionCrossDissolve
                    animations:^{
                        for (UIView *view in views) {
                            [cell.contentView addSubview:view];
                        }
                    }
                    completion:nil];
}

+ (void)drawImageAtX:(CGFloat)x tag:(NSInteger)tag intoCell:(UITableViewCell *)cell {
    [self fadeInViews:@[ [self spaceshipViewWithFrame:CGRectMake(x, 20, 85, 85) tag:tag] ] intoCell:cell];
}

+ (void)drawCaptionedImageIntoCell:(UITableViewCell *)cell indexPath:(NSIndexPath *)indexPath {
    UILabel *label = [[UILabel alloc] initWithFrame:CGRectMake(5, 99, 300, 35)];
    label.numberOfLines = 0;
    label.textColor = [UIColor colorWithRed:0 green:100.f / 255.f blue:0 alpha:1];
    label.text = [NSString stringWithFormat:@"%ld - large image drawn in a later run loop pass", (long)indexPath.row];
    label.font = [UIFont boldSystemFontOfSize:13];
    label.tag = 4;
    [self fadeInViews:@[ label, [self spaceshipViewWithFrame:CGRectMake(5, 20, 85, 85) tag:5] ] intoCell:cell];
}

- (void)loadView {
    self.view = [UIView new];
    self.exampleTableView = [UITableView new];
    self.exampleTableView.delegate = self;
    self.exampleTableView.dataSource = self;
    [self.view addSubview:self.exampleTableView];
}

- (void)viewDidLoad {
    [super viewDidLoad];
    [self.exampleTableView registerClass:[UITableViewCell class] forCellReuseIdentifier:kCellIdentifier];
}

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    self.exampleTableView.frame = self.view.bounds;
}

- (NSInteger)tableView:(UITableView *)tableView numberOfRowsInSection:(NSInteger)section {
    return kRowCount;
}

- (CGFloat)tableView:(UITableView *)tableView heightForRowAtIndexPath:(NSIndexPath *)indexPath {
    return kCellHeight;
}

- (UITableViewCell *)tableView:(UITableView *)tableView cellForRowAtIndexPath:(NSIndexPath *)indexPath {
    UITableViewCell *cell = [tableView dequeueReusableCellWithIdentifier:kCellIdentifier];
    cell.selectionStyle = UITableViewCellSelectionStyleNone;
    // DWU's `cell.currentIndexPath = indexPath`: the cell's earlier tasks are stale from here on.
    IWIdleQueue *queue = [IWIdleQueue sharedQueue];
    [queue bindCell:cell toIndexPath:indexPath];
    [RunLoopWorkDistributionPort removeDrawingsFromCell:cell];
    [RunLoopWorkDistributionPort addIndexLabelToCell:cell indexPath:indexPath];
    // No `currentIndexPath` check in the tasks: the queue skips a task whose cell shows another row.
    [queue addTaskForCell:cell atIndexPath:indexPath block:^(UITableViewCell *cell) {
        [RunLoopWorkDistributionPort drawImageAtX:105 tag:2 intoCell:cell];
    }];
    [queue addTaskForCell:cell atIndexPath:indexPath block:^(UITableViewCell *cell) {
        [RunLoopWorkDistributionPort drawImageAtX:200 tag:3 intoCell:cell];
    }];
    [queue addTaskForCell:cell atIndexPath:indexPath block:^(UITableViewCell *cell) {
        [RunLoopWorkDistributionPort drawCaptionedImageIntoCell:cell indexPath:indexPath];
    }];
    return cell;
}

- (void)tableView:(UITableView *)tableView
      willDisplayCell:(UITableViewCell *)cell
    forRowAtIndexPath:(NSIndexPath *)indexPath {
    [[IWIdleQueue sharedQueue] cellWillDisplay:cell atIndexPath:indexPath];
}

- (void)tableView:(UITableView *)tableView
    didEndDisplayingCell:(UITableViewCell *)cell
       forRowAtIndexPath:(NSIndexPath *)indexPath {
    [[IWIdleQueue sharedQueue] cellDidEndDisplaying:cell atIndexPath:indexPath];
}

@end
